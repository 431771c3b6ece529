// Glue for factory.ts: load the description (cached; no request while fresh), bind the command's
// operations, and wrap its API client. Loaded only by commands that talk to the service.
import type { ApiClient } from '../api-client.js';
import type { Context } from '../context.js';
import { bindOperations } from './bind.js';
import { bindClient } from './bound-client.js';
import { loadDescription } from './load.js';
import type { Operation } from './operations.js';

export async function bindToDescription(
  ctx: Context,
  client: ApiClient,
  command: string,
  operations: readonly Operation[],
): Promise<ApiClient> {
  const description = await loadDescription(ctx, { api: client });
  const binding = await bindOperations(command, operations, description);
  for (const bound of binding.operations) {
    if (bound.how === 'operationId')
      ctx.io.debug(
        `* ${bound.operationId}: published at ${bound.published.method} ${bound.published.path} (modelled ${bound.declared.path})`,
      );
  }
  return bindClient(client, binding);
}
