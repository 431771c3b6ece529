// Which operations each command calls, declared where the command is built. At run time the CLI binds
// each one to the service's published description (operation-binding.ts); a test checks them against openapi.json.
import type { Command } from 'commander';
import type { HttpMethod } from '../api-client.js';

export interface Operation {
  method: HttpMethod;
  /** Path template with `{name}` placeholders, e.g. `/api/files/{id}/content`. */
  path: string;
  /** Query parameters it may send (list filters). */
  query?: readonly string[];
}

const declared = new WeakMap<Command, readonly Operation[]>();

/** Record that `command` calls these operations; returns the command for chaining. */
export function calls<C extends Command>(command: C, ...operations: Operation[]): C {
  declared.set(command, [...(declared.get(command) ?? []), ...operations]);
  return command;
}

/**
 * Keep only the declared operations `keep` accepts. For a command whose flags choose what it calls
 * (`export --families`): it declares everything it may call (for `spec check`), then narrows to what
 * this run calls before its context is made, so an operation it will not call is not required.
 */
export function narrowCalls(command: Command, keep: (operation: Operation) => boolean): void {
  declared.set(command, (declared.get(command) ?? []).filter(keep));
}

export function declaredOperations(command: Command): readonly Operation[] {
  return declared.get(command) ?? [];
}

/** A path template with its `{placeholders}` replaced by URL-encoded values. */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}
