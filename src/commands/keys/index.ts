// `appraisal keys`: the organization's API keys — list, get, create, revoke, rotate, audit, scan, lease.
// The noun's summary is the registry's (commands/registry.ts); its verbs are these declarations.
import type { NounVerbs } from '../../core/verb.js';
import audit from './audit.js';
import create from './create.js';
import get from './get.js';
import lease from './lease/command.js';
import list from './list.js';
import revoke from './revoke.js';
import rotate from './rotate.js';
import scan from './scan.js';

const verbs: NounVerbs = [list, get, create, revoke, rotate, audit, scan, lease];

export default verbs;
