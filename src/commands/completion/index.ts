// `appraisal completion bash|zsh|fish`: print a completion script generated from the command tree
// built from every verb's declaration (root.ts), and the hidden `completion __profiles` the scripts
// call to complete profile names.
import type { NounVerbs } from '../../core/verb.js';
import profiles from './profiles.js';
import { SHELL_VERBS } from './shells.js';

const verbs: NounVerbs = [...SHELL_VERBS, profiles];

export default verbs;
