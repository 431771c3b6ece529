// `appraisal keys lease`: its flags, help and the operations it calls (the lease logic is run-lease.ts).
import { CONFIRM_OPTIONS, SERVICE_OPTIONS } from '../../../core/global-options.js';
import { declaredVerbs, defineVerb } from '../../../core/verb.js';
import { CURRENT_KEY_PATH, KEY_PATH_TEMPLATE, KEYS_PATH } from '../records.js';
import { KEY_SCOPES } from '../scopes.js';
import { runLease, type LeaseOptions } from './run-lease.js';

export default defineVerb<LeaseOptions>({
  name: 'lease',
  summary: "run CMD with a short-lived key of its own, revoked when CMD ends (exit: CMD's code)",
  arguments: [{ name: 'cmd', description: 'the command to run, after --', required: true, variadic: true }],
  options: [
    {
      flags: '--scope <scope>',
      description: 'a scope to lease; repeat for several (default: derived when CMD is an appraisal command)',
      repeatable: true,
    },
    { flags: '--ttl <duration>', description: 'the key expires after this long even if never revoked, e.g. 10m, 1h (required; 1m to 24h)' },
    {
      flags: '--no-mask',
      description:
        "pass CMD's output through untouched (binary output); by default the leased key, and the key it was made with, are masked in it",
    },
  ],
  takes: [...SERVICE_OPTIONS, ...CONFIRM_OPTIONS],
  calls: [
    { method: 'GET', path: CURRENT_KEY_PATH },
    { method: 'POST', path: KEYS_PATH },
    { method: 'DELETE', path: KEY_PATH_TEMPLATE },
  ],
  examples: [
    'appraisal keys lease --scope properties:read --ttl 10m -- ./nightly-report.sh',
    'appraisal keys lease --ttl 15m -- appraisal props list -o csv --out props.csv   # scopes derived: properties:read',
    'appraisal keys lease --scope files:write --ttl 30m --yes -- make upload',
  ],
  notes: `CMD gets the leased key in APPRAISAL_API_KEY (never this command's own key), with APPRAISAL_BASE_URL and\nAPPRAISAL_CA_FILE of this run. Ctrl-C and SIGTERM are passed on; a CMD still running 5s later is killed.\nThe key is revoked when CMD ends; if that fails the exit is 23 with the command that revokes it.\nScopes: ${KEY_SCOPES.join(', ')}`,
  // Without --scope it reads the declarations to derive the scopes of an appraisal CMD.
  run: async (ctx, argv, options) => runLease(ctx, argv, options, await declaredVerbs(ctx)),
});
