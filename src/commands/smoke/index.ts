// `appraisal smoke`: the CI smoke check of a non-production environment. The one-line summary is
// the registry's (commands/registry.ts).
import { ENVIRONMENTS } from '../../core/config.js';
import { runSmoke, type SmokeCommandOptions } from './run.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineNounCommand } from '../../core/verb.js';

export default defineNounCommand<SmokeCommandOptions>({
  options: [
    { flags: '--junit <path>', description: 'also write a JUnit XML report to PATH (atomically)' },
    { flags: '--write', description: 'also create, read, update and delete a throwaway property (skipped without the scopes)' },
    {
      flags: '--environment <env>',
      description: 'what a run without a stored profile targets (env APPRAISAL_ENVIRONMENT; unset: production)',
      choices: ENVIRONMENTS,
    },
    { flags: '--wait-ready <duration>', description: 'first wait up to DURATION (e.g. 2m) for the service to answer, with backoff' },
    { flags: '--max-latency <duration>', description: 'fail any check slower than DURATION (e.g. 800ms)' },
    { flags: '--checks <file>', description: "add the team's own checks from a JSON or YAML (.yaml, .yml) file" },
    { flags: '--no-contract', description: 'skip the contract checks (see below)' },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  calls: 'per-request',
  examples: [
    'appraisal smoke --profile staging',
    'APPRAISAL_ENVIRONMENT=staging appraisal smoke --wait-ready 2m --max-latency 800ms --junit smoke.xml',
    'appraisal smoke --profile staging --write --checks smoke.json --junit reports/smoke.xml',
    'appraisal smoke -o json | jq .ok',
  ],
  notes:
    'Checks: the service answers over TLS, the credential works (GET /api/keys/current), the key is not\n' +
    'about to expire (fails within 24 hours, warns within 14 days), and one page of every family the\n' +
    "key's scopes allow can be listed and parsed. A table of checks with timings goes to stderr;\n" +
    '-o json prints the report on stdout (nothing else does). Exit 0 only when every check passed (skips\n' +
    'are fine, but not a run where every data check was skipped or refused: that proved nothing);\n' +
    'otherwise the exit code of the first failure (e.g. 3 unreachable, 4 credential, 8 service errors,\n' +
    '9 a broken response or an unmet expectation such as a latency budget). A production target, or\n' +
    'one of unknown environment, is refused with exit 10; without a stored profile a run is production\n' +
    'unless APPRAISAL_ENVIRONMENT or --environment says staging, development or local.\n' +
    '\nA failed check shows its request, status, request id, the service message and a curl command that\n' +
    'reproduces it (the key as $APPRAISAL_API_KEY). Under GITHUB_ACTIONS=true failures are also\n' +
    '::error annotations and a summary is appended to $GITHUB_STEP_SUMMARY.\n' +
    '\nSmoke binds to the same service description as every command (--spec, APPRAISAL_SPEC, the\n' +
    "profile's spec URL, discovery, the cache). The spec check reports it and fails (exit 12) when an\n" +
    'operation the CLI calls is not published; every record smoke reads is validated against its\n' +
    "operation's response schema (violations fail the check, exit 9). --no-contract skips both.\n" +
    '\n--checks FILE: {"checks": [{"name": "offices exist", "operation": "listProperties",\n' +
    '  "params": {"propertyType": "office"}, "expectStatus": 200, "minItems": 1, "maxLatency": "500ms"}]}\n' +
    '  operation is any operationId of the description, or "METHOD /path"; params are its published\n' +
    '  path and query parameters. Smoke reads: a check of another method than GET or HEAD needs\n' +
    '  "allowWrite": true (and may send "body"). A check that does not fit is refused (exit 2).\n',
  run: (ctx, _args, options) => runSmoke(ctx, options),
});
