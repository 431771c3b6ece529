// `appraisal api OPERATION_ID`: an operationId of the service's description instead of METHOD PATH,
// with `--path-param name=value` for its path template, and help built from the description.
import type { HttpMethod } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { UnpublishedOperationError, UsageError } from '../../core/errors.js';
import { findByOperationId, type PublishedOperation } from '../../core/description/document.js';
import { loadDescription, type LoadedDescription } from '../../core/description/load.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** One argument that is not an HTTP method: an operationId. */
export function isOperationId(args: readonly string[]): boolean {
  return args.length === 1 && /^[A-Za-z_][\w.-]*$/.test(args[0]!) && !METHODS.has(args[0]!.toUpperCase());
}

async function find(ctx: Context, operationId: string): Promise<{ operation: PublishedOperation; loaded: LoadedDescription }> {
  const loaded = await loadDescription(ctx);
  const operation = findByOperationId(loaded.contract, operationId);
  if (!operation) {
    const near = loaded.contract.operations
      .map((candidate) => candidate.operationId)
      .filter((id): id is string => id !== undefined && id.toLowerCase().includes(operationId.toLowerCase().slice(0, 4)))
      .slice(0, 5);
    throw new UnpublishedOperationError(`the service publishes no operation "${operationId}" (description: ${loaded.source})`, {
      hint: `${near.length > 0 ? `similar: ${near.join(', ')}; ` : ''}list them with \`appraisal api --list\``,
    });
  }
  return { operation, loaded };
}

/** `--path-param id=…` values into the operation's path template; every placeholder needs one. */
export function fillOperationPath(operation: PublishedOperation, raw: readonly string[] | undefined): string {
  const values = new Map<string, string>();
  for (const entry of raw ?? []) {
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new UsageError(`--path-param needs name=value, got "${entry.slice(0, 40)}"`);
    values.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  const names = [...operation.path.matchAll(/\{([^}/]*)\}/g)].map((match) => match[1]!);
  const unknown = [...values.keys()].filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new UsageError(`--path-param ${unknown[0]}: ${operation.operationId} has no path parameter "${unknown[0]}"`, {
      hint: names.length > 0 ? `its path parameters: ${names.join(', ')}` : `${operation.path} has no path parameters`,
    });
  }
  const missing = names.filter((name) => !values.get(name));
  if (missing.length > 0) {
    throw new UsageError(`${operation.operationId} needs --path-param ${missing.map((name) => `${name}=…`).join(' --path-param ')}`, {
      hint: `its path is ${operation.path}`,
    });
  }
  return operation.path.replace(/\{([^}/]*)\}/g, (_, name: string) => encodeURIComponent(values.get(name)!));
}

/** METHOD and PATH for an operationId. */
export async function resolveOperation(
  ctx: Context,
  operationId: string,
  pathParams: readonly string[] | undefined,
): Promise<{ method: HttpMethod; path: string }> {
  const { operation } = await find(ctx, operationId);
  return { method: operation.method, path: fillOperationPath(operation, pathParams) };
}

function oneLine(text: string | undefined): string {
  return (text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
}

/** `appraisal api OPERATION_ID --help`: summary, path and parameters from the description. */
export async function operationHelp(ctx: Context, operationId: string): Promise<string> {
  const { operation, loaded } = await find(ctx, operationId);
  const pathParams = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParams = operation.parameters.filter((parameter) => parameter.in === 'query');
  const usage = [`appraisal api ${operationId}`, ...pathParams.map((p) => `--path-param ${p.name}=…`)];
  if (queryParams.length > 0) usage.push('[-f name=value]...');
  if (operation.requestSchema !== undefined) usage.push("--data '{…}'");
  if (operation.method === 'GET' && operation.envelope === 'collection') usage.push('[--all]');
  const lines = [`Usage: ${usage.join(' ')}`, ''];
  if (operation.summary) lines.push(oneLine(operation.summary));
  if (operation.description) lines.push(oneLine(operation.description));
  lines.push('', `${operation.method} ${operation.path} — from ${loaded.source}`);
  const describe = (p: { name: string; required: boolean; description: string | undefined }) =>
    `  ${p.name.padEnd(20)} ${p.required ? '(required) ' : ''}${oneLine(p.description)}`.trimEnd();
  if (pathParams.length > 0) lines.push('', 'Path parameters (--path-param name=value):', ...pathParams.map(describe));
  if (queryParams.length > 0)
    lines.push(
      '',
      `Query parameters (${operation.method === 'GET' || operation.method === 'HEAD' ? '-f name=value' : 'in PATH'}):`,
      ...queryParams.map(describe),
    );
  if (operation.requestSchema !== undefined)
    lines.push('', 'Request body: JSON (--data, -f, -F), checked against the published schema unless --no-validate');
  return `${lines.join('\n')}\n`;
}
