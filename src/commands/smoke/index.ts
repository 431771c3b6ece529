// `appraisal smoke`: the CI smoke check of a non-production environment.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import { runSmoke, type SmokeCommandOptions } from './run.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';

export default function smokeCommand(factory: Factory): Command {
  const command = new Command('smoke')
    .description('CI smoke check of a non-production environment (refuses production: exit 10)')
    .option('--junit <path>', 'also write a JUnit XML report to PATH (atomically), for CI dashboards')
    .option('--write', 'also create, read, update and delete a throwaway property (skipped without the scopes)');
  command.addHelpText(
    'after',
    '\nChecks: the service answers over TLS, the credential works (GET /api/keys/current), the key is not\n' +
      'about to expire (fails within 24 hours, warns within 14 days), and one page of every family the\n' +
      "key's scopes allow can be listed and parsed. A table of checks with timings goes to stderr;\n" +
      '-o json prints the report on stdout. Exit 0 only when every check passed (skips are fine);\n' +
      'otherwise the exit code of the first failure (e.g. 3 unreachable, 4 credential, 8 service errors,\n' +
      '9 a broken response). A production profile, or one of unknown environment, is refused with exit 10.\n',
  );
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS);
  examples(command, [
    'appraisal smoke --profile staging',
    'appraisal smoke --profile staging --write --junit reports/smoke.xml',
    'appraisal smoke -o json | jq .ok',
  ]);
  return command.action(action<SmokeCommandOptions>(factory, (ctx, _args, options) => runSmoke(ctx, options)));
}
