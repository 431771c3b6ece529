// The public-contract check of `appraisal api`: is METHOD PATH an operation of the service's
// published description? If not, a warning (or, with --strict, a refusal before any request is made).
import type { HttpMethod } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import {
  AuthenticationError,
  ContractError,
  HttpError,
  MissingCredentialError,
  NetworkError,
  SafetyError,
  UnpublishedOperationError,
  UsageError,
} from '../../core/errors.js';
import { matchOperation, type PublishedContract, type PublishedOperation } from '../../core/description/document.js';
import { loadDescription } from '../../core/description/load.js';

export interface ContractCheckOptions {
  strict?: boolean | undefined;
}

/** Failures the request itself would report just the same: no point warning about them first. */
function requestWouldFailToo(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    error instanceof AuthenticationError ||
    error instanceof MissingCredentialError ||
    // The key over plain http:// to another machine, refused before the description is asked (factory.ts).
    error instanceof SafetyError
  );
}

export interface CheckedOperation {
  operation: PublishedOperation;
  contract: PublishedContract;
}

/**
 * A description the user named that could not be used for a reason of their own making (an unreadable
 * path, a bad URL): an error. One that was read but is no OpenAPI description is not: DESCRIPTION.md
 * says `api` then skips its check with a warning (a failing description never blocks the request).
 */
function namedSpecUnusable(error: unknown): boolean {
  return error instanceof UsageError && !(error.cause instanceof ContractError);
}

/** Returns the published operation, or undefined when the path is internal or the check could not run. */
export async function checkPublicContract(
  ctx: Context,
  method: HttpMethod,
  path: string,
  options: ContractCheckOptions,
): Promise<CheckedOperation | undefined> {
  const explicit = ctx.globals.spec !== undefined;
  let loaded;
  try {
    // A failed discovery is thrown, not replaced: this check has its own rules for it (below).
    loaded = await loadDescription(ctx, { failures: 'throw' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (options.strict) {
      // A credential or network failure is reported as what it is, with its own exit code.
      if (requestWouldFailToo(error) || (error instanceof HttpError && error.status !== 404)) throw error;
      if (namedSpecUnusable(error) && explicit) throw error;
      throw new UsageError(`cannot check ${method} ${path} against the public contract: ${reason}`, {
        hint: 'give the description with --spec URL|PATH, or drop --strict',
        cause: error,
      });
    }
    if (namedSpecUnusable(error) && explicit) throw error;
    // The service's own description unreachable: the request will say so. One named with --spec: say it here.
    if (requestWouldFailToo(error) && !explicit) ctx.io.debug(`could not load the service description: ${reason}`);
    else ctx.io.warn(`could not load the service description: ${reason}; skipping the public-contract check`);
    return undefined;
  }
  const { operation, methodsForPath } = matchOperation(loaded.contract, method, path);
  if (operation) {
    ctx.io.debug(`public contract: ${operation.method} ${operation.path}${operation.operationId ? ` (${operation.operationId})` : ''}`);
    return { operation, contract: loaded.contract };
  }
  const published = methodsForPath.length > 0 ? `; published methods for this path: ${methodsForPath.join(', ')}` : '';
  if (options.strict) {
    // Unpublished is what exit 12 means, as for `api OPERATION_ID` and every command's own operations.
    throw new UnpublishedOperationError(`refusing ${method} ${path}: internal path, not part of the public contract${published}`, {
      hint: 'see the published operations with `appraisal api --list`; drop --strict to call it anyway',
    });
  }
  ctx.io.warn(`internal path: ${method} ${path} is not part of the public contract${published}`);
  return undefined;
}
