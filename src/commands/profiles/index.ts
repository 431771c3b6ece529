// `appraisal profiles`: list, select and remove profiles. The noun's summary is the registry's
// (commands/registry.ts); its verbs are these declarations.
import type { NounVerbs } from '../../core/verb.js';
import list from './list.js';
import remove from './remove.js';
import use from './use.js';

const verbs: NounVerbs = [list, use, remove];

export default verbs;
