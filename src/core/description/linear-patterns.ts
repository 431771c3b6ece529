// The regular-expression engine ajv compiles a description's `pattern`s with (issue 26 item 9). The
// description comes from the service: a published `^(a+)+$` run by JavaScript's backtracking engine
// hangs the main thread on a long enough value, deaf to Ctrl-C. RE2 (re2js, pure JavaScript, loaded
// with ajv) matches in time linear in the input. A pattern RE2 cannot compile (a backreference,
// lookaround) cannot be checked safely: it is a contract error naming the pattern, never a hang.
import { ContractError } from '../errors.js';

/** What ajv's `code.regExp` option takes: `(pattern, flags) => { test(s) }`, plus a name for generated code. */
export interface RegExpEngine {
  (pattern: string, flags: string): { test(value: string): boolean };
  code: string;
}

interface Re2Module {
  RE2JS: {
    compile(pattern: string, flags?: number): { test(value: string): boolean };
    translateRegExp(pattern: string): string;
  };
}

/** ajv's regExp option over RE2: each pattern compiled once per validator. */
export async function linearRegExpEngine(): Promise<RegExpEngine> {
  const { RE2JS } = (await import('re2js')) as unknown as Re2Module;
  const compile = (pattern: string): { test(value: string): boolean } => {
    try {
      return RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      const shown = pattern.length > 80 ? `${pattern.slice(0, 79)}…` : pattern;
      throw new ContractError(
        `the service description's pattern ${JSON.stringify(shown)} cannot be checked in linear time (${(error as Error).message})`,
        {
          hint: 'backreferences and lookaround are not supported; validate without the description with --no-validate, or pass a corrected one with --spec PATH',
        },
      );
    }
  };
  return Object.assign(compile, { code: 'linearRegExp' });
}
