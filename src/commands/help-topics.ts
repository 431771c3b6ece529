// `appraisal help exit-codes`, `help options` and `help environment`: the tables of CLI.md. A verb's
// --help lists its own options and points here for the shared ones (one line, as `gh` does).
import type { Context } from '../core/context.js';
import { EXIT_CODE_NOTES, EXIT_CODE_TABLE } from '../core/exit-codes.js';
import { GLOBAL_OPTIONS, type OptionGroup } from '../core/global-options.js';

export const HELP_TOPICS = ['options', 'environment', 'exit-codes'] as const;

const ENVIRONMENT_VARIABLES: ReadonlyArray<[string, string]> = [
  ['APPRAISAL_PROFILE', 'profile to use (same as -p/--profile)'],
  ['APPRAISAL_BASE_URL', "override the profile's base URL (same as --base-url)"],
  ['APPRAISAL_API_KEY', 'API key for automation; shadows a stored key (a notice says so)'],
  ['APPRAISAL_TOKEN', 'bearer token instead of an API key'],
  ['APPRAISAL_ENVIRONMENT', 'what a run without a stored profile targets: staging, development, local (unset: production)'],
  ['APPRAISAL_CA_FILE', 'extra trusted CA certificate (same as --ca-file)'],
  ['APPRAISAL_TIMEOUT', 'per-request timeout in seconds (same as --timeout)'],
  ['APPRAISAL_MAX_RESPONSE_SIZE', 'largest JSON answer read (same as --max-response-size; default 64MiB)'],
  ['APPRAISAL_MIN_RATE', 'slowest upload or download accepted, SIZE per TIME or 0 (same as --min-rate; default 30KiB/30s)'],
  ['APPRAISAL_DEBUG', '1: request/response lines on stderr (same as --verbose)'],
  ['APPRAISAL_NO_INPUT', '1: never prompt (same as --no-input)'],
  ['APPRAISAL_SPEC', "the service's API description for this run, URL or file (same as --spec)"],
  ['APPRAISAL_SPEC_MAX_AGE', 'seconds a cached service description is used without asking the service (default 86400)'],
  ['APPRAISAL_CONFIG_DIR', 'where profiles are kept (default: the XDG config dir)'],
  ['APPRAISAL_KEYRING_TIMEOUT', 'milliseconds to wait for the OS keychain (default 3000)'],
  ['APPRAISAL_WEBHOOK_SECRET', '`watch --forward-to` only: whsec_ secret(s) to sign with, when no --forward-secret-file is given'],
  ['APPRAISAL_MOCK_ADMIN_KEY', '`appraisal mock` only: the admin key it accepts (same as --admin-key)'],
  ['NO_COLOR', 'disable colour'],
  [
    'HTTPS_PROXY / HTTP_PROXY / NO_PROXY',
    'proxy settings, honoured for every request but to this machine: localhost, 127.0.0.0/8 and ::1 are never proxied',
  ],
];

/** The shared options, by who takes them: each command's --help lists only its own groups. */
const OPTION_SECTIONS: ReadonlyArray<[OptionGroup, string]> = [
  ['general', 'Options every command takes'],
  ['service', 'Service options (commands that call the service)'],
  ['output', 'Output options (commands that print records)'],
  ['csv', 'CSV options, for spreadsheets (lists, get, create, update and export, with -o csv)'],
  ['paging', 'Paging options (commands that list a collection)'],
  ['confirm', 'Confirmation (commands that delete, revoke or rotate)'],
];

function optionSections(): string {
  return OPTION_SECTIONS.map(([group, title]) => {
    const rows = GLOBAL_OPTIONS.filter((option) => option.group === group).map((option) => {
      const extra = [
        option.choices ? `one of ${option.choices.join(', ')}` : '',
        option.defaultValue ? `default ${option.defaultValue}` : '',
      ].filter(Boolean);
      return [option.flags, extra.length > 0 ? `${option.description} (${extra.join('; ')})` : option.description] as const;
    });
    return `${title}:\n${table(rows)}`;
  }).join('\n');
}

function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n') + '\n';
}

export function printHelpTopic(topic: string, ctx: Context): boolean {
  if (topic === 'exit-codes') {
    ctx.io.stdout.write(
      `Exit codes:\n${table(EXIT_CODE_TABLE.map((row) => [String(row.code), row.meaning] as const))}\n${EXIT_CODE_NOTES.join('\n')}\n`,
    );
    return true;
  }
  if (topic === 'options') {
    ctx.io.stdout.write(`The options commands share; each command's --help says which groups it takes.\n\n${optionSections()}`);
    return true;
  }
  if (topic === 'environment') {
    ctx.io.stdout.write(`${optionSections()}\nEnvironment variables:\n${table(ENVIRONMENT_VARIABLES)}`);
    return true;
  }
  return false;
}
