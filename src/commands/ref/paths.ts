// `ref enums`: one object of lists, not a collection (designations are a family in core/resources.ts;
// the path is the model's, REFERENCE_ENUMS_PATH).
import type { View } from '../../output/index.js';

/** `ref enums` as a table or csv: one row per enum. */
export const ENUMS_VIEW: View = { label: 'enums', singular: 'enum', columns: ['name', 'values'] };
