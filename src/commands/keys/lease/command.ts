// `appraisal keys lease`: its flags, help and the operations it calls (the lease logic is run-lease.ts).
import { Command, Option } from 'commander';
import { action, examples, type Factory } from '../../../core/command.js';
import { calls } from '../../../core/description/operations.js';
import { CONFIRM_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../../core/global-options.js';
import { CURRENT_KEY_PATH, KEY_PATH_TEMPLATE, KEYS_PATH } from '../records.js';
import { KEY_SCOPES } from '../scopes.js';
import { runLease, type LeaseOptions } from './run-lease.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export default function leaseCommand(factory: Factory): Command {
  const command = new Command('lease')
    .description("run CMD with a short-lived key of its own, revoked when CMD ends (exit: CMD's code)")
    .argument('<cmd...>', 'the command to run, after --')
    .option('--scope <scope>', 'a scope to lease; repeat for several (default: derived when CMD is an appraisal command)', collect)
    .option('--ttl <duration>', 'the key expires after this long even if never revoked, e.g. 10m, 1h (required; 1m to 24h)')
    .addOption(new Option('--no-mask', "pass CMD's output through untouched (binary output); by default the leased key is masked in it"));
  calls(
    command,
    { method: 'GET', path: CURRENT_KEY_PATH },
    { method: 'POST', path: KEYS_PATH },
    { method: 'DELETE', path: KEY_PATH_TEMPLATE },
  );
  takesOptions(command, ...SERVICE_OPTIONS, ...CONFIRM_OPTIONS);
  examples(command, [
    'appraisal keys lease --scope properties:read --ttl 10m -- ./nightly-report.sh',
    'appraisal keys lease --ttl 15m -- appraisal props list -o csv --out props.csv   # scopes derived: properties:read',
    'appraisal keys lease --scope files:write --ttl 30m --yes -- make upload',
  ]);
  command.addHelpText(
    'after',
    `\nCMD gets the leased key in APPRAISAL_API_KEY (never this command's own key), with APPRAISAL_BASE_URL and\nAPPRAISAL_CA_FILE of this run. Ctrl-C and SIGTERM are passed on; a CMD still running 5s later is killed.\nThe key is revoked when CMD ends; if that fails the exit is 23 with the command that revokes it.\nScopes: ${KEY_SCOPES.join(', ')}\n`,
  );
  return command.action(
    action<LeaseOptions>(factory, (ctx, argv, options) => {
      const root = command.parent?.parent ?? command;
      return runLease(ctx, argv, options, root);
    }),
  );
}
