// `appraisal spec`: the service's published API description the CLI binds to — fetch it now, show
// where it comes from, check this CLI's commands against it, and diff it against the cached copy.
// The noun's summary is the registry's (commands/registry.ts); its verbs are these declarations.
import type { NounVerbs } from '../../core/verb.js';
import check from './check.js';
import diff from './diff.js';
import show from './show.js';
import sync from './sync.js';

const verbs: NounVerbs = [sync, show, check, diff];

export default verbs;
