// `appraisal auth`: log in, show the credential in use, log out. The noun's summary is the
// registry's (commands/registry.ts); its verbs are these declarations.
import type { NounVerbs } from '../../core/verb.js';
import login from './login.js';
import logout from './logout.js';
import status from './status.js';

const verbs: NounVerbs = [login, status, logout];

export default verbs;
