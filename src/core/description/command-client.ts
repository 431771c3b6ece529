// The API client a command that declares its operations gets (factory.ts): the description loaded
// (cached; no request while fresh), the operations bound, the client routed. Only for commands that talk to the service.
import type { ApiClient } from '../api-client.js';
import type { Context } from '../context.js';
import { bindOperations } from './operation-binding.js';
import { bindClient } from './routed-client.js';
import { loadDescription } from './load.js';
import type { Operation } from './operations.js';

export async function clientForCommand(
  ctx: Context,
  client: ApiClient,
  command: string,
  operations: readonly Operation[],
): Promise<ApiClient> {
  const description = await loadDescription(ctx, { api: client, command });
  const binding = await bindOperations(command, operations, description);
  for (const bound of binding.operations) {
    if (bound.how === 'operationId')
      ctx.io.debug(
        `* ${bound.operationId}: published at ${bound.published.method} ${bound.published.path} (modelled ${bound.declared.path})`,
      );
  }
  return bindClient(client, binding);
}
