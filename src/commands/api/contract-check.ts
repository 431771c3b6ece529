// The public-contract check of `appraisal api`: is METHOD PATH an operation of the published OpenAPI
// document? If not, a warning (or, with --strict, a refusal before any request is made).
import type { HttpMethod } from '../../core/api-client.js';
import type { Context } from '../../core/context.js';
import { AuthenticationError, MissingCredentialError, NetworkError, HttpError, UsageError } from '../../core/errors.js';
import { matchOperation, type PublishedOperation } from '../../core/description/document.js';
import { loadFailureReason, loadPublishedContract } from './load-contract.js';

export interface ContractCheckOptions {
  spec?: string | undefined;
  strict?: boolean | undefined;
}

/** Failures the request itself would report just the same: no point warning about them first. */
function requestWouldFailToo(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof AuthenticationError || error instanceof MissingCredentialError;
}

/** Returns the published operation, or undefined when the path is internal or the check could not run. */
export async function checkPublicContract(
  ctx: Context,
  method: HttpMethod,
  path: string,
  options: ContractCheckOptions,
): Promise<PublishedOperation | undefined> {
  let loaded;
  try {
    loaded = await loadPublishedContract(ctx, { spec: options.spec });
  } catch (error) {
    const reason = loadFailureReason(error);
    if (options.strict) {
      // A credential or network failure is reported as what it is, with its own exit code.
      if (requestWouldFailToo(error) || (error instanceof HttpError && error.status !== 404)) throw error;
      if (error instanceof UsageError && options.spec !== undefined) throw error;
      throw new UsageError(`cannot check ${method} ${path} against the public contract: ${reason}`, {
        hint: 'give the document with --spec URL|PATH, or drop --strict',
        cause: error,
      });
    }
    if (error instanceof UsageError && options.spec !== undefined) throw error;
    if (requestWouldFailToo(error)) ctx.io.debug(`could not load the OpenAPI document: ${reason}`);
    else ctx.io.warn(`could not load the OpenAPI document: ${reason}; skipping the public-contract check`);
    return undefined;
  }
  const { operation, methodsForPath } = matchOperation(loaded.contract, method, path);
  if (operation) {
    ctx.io.debug(`public contract: ${operation.method} ${operation.path}${operation.operationId ? ` (${operation.operationId})` : ''}`);
    return operation;
  }
  const published = methodsForPath.length > 0 ? `; published methods for this path: ${methodsForPath.join(', ')}` : '';
  if (options.strict) {
    throw new UsageError(`refusing ${method} ${path}: internal path, not part of the public contract${published}`, {
      hint: 'see the published operations with `appraisal api --list`; drop --strict to call it anyway',
    });
  }
  ctx.io.warn(`internal path: ${method} ${path} is not part of the public contract${published}`);
  return undefined;
}
