// `appraisal doctor`: one report of what is wrong with this machine's setup for the service, read
// only, offline first (run-doctor.ts; one file per check group). A one-command noun: this module's
// default export is its declaration; its name and summary are the registry's.
import { defineNounCommand } from '../../core/verb.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { runDoctor, type DoctorOptions } from './run-doctor.js';

export default defineNounCommand<DoctorOptions>({
  options: [
    { flags: '--offline', description: 'skip the network checks (DNS, TCP, TLS, the service)' },
    { flags: '--check-network', description: 'run the network checks (the default when a base URL is set)' },
  ],
  takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
  calls: [{ method: 'GET', path: '/api/keys/current' }],
  examples: ['appraisal doctor', 'appraisal doctor -o json > doctor.json   # attach to a support ticket', 'appraisal doctor --offline'],
  notes:
    "Read-only: nothing is written. Every check as a list on a terminal, a finding's next step below it;\n-o json lists only the findings (warning or error), each with its severity and next step. Exit 0 when\nall is well, 20 when there is a finding. Never a secret: keys by prefix, proxy passwords masked.",
  run: (ctx, _args, options) => runDoctor(ctx, options),
});
