// The global options every `spec` verb takes: each reads the description itself (its own request,
// cached or not), not one bound operation, and prints what it found.
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';

export const SPEC_TAKES: readonly string[] = [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS];
