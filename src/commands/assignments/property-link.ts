// `assignments link|unlink ID PROPERTY_ID`: PUT or DELETE one link. Whether a link may be made or
// removed (say, in the assignment's current status) is the service's call: its 409/422 message
// reaches the user as it is.
import { Command } from 'commander';
import { action, examples, type Factory } from '../../core/command.js';
import { requireUuid } from '../../core/ids.js';
import { writeRecord } from '../../output/index.js';
import { calls, fillPath } from '../../core/description/operations.js';
import { ASSIGNMENT_PROPERTY_LINK } from './paths.js';
import { RESOURCES } from '../../core/resources.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS, takesOptions } from '../../core/global-options.js';

export interface LinkMode {
  name: 'link' | 'unlink';
  method: 'PUT' | 'DELETE';
  description: string;
  /** The notice once done. */
  done(property: string, assignment: string): string;
}

export const LINK: LinkMode = {
  name: 'link',
  method: 'PUT',
  description: 'link a property to an assignment',
  done: (property, assignment) => `Linked property ${property} to assignment ${assignment}`,
};

export const UNLINK: LinkMode = {
  name: 'unlink',
  method: 'DELETE',
  description: 'remove a property from an assignment',
  done: (property, assignment) => `Unlinked property ${property} from assignment ${assignment}`,
};

function isRecord(value: unknown): value is { id: string; [field: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { id?: unknown }).id === 'string';
}

export function propertyLinkVerb(factory: Factory, mode: LinkMode, usage: string[]): Command {
  const command = new Command(mode.name)
    .argument('<id>', 'assignment id (UUID)')
    .argument('<property-id>', 'property id (UUID)')
    .description(mode.description);
  calls(command, { method: mode.method, path: ASSIGNMENT_PROPERTY_LINK });
  takesOptions(command, ...SERVICE_OPTIONS, ...OUTPUT_OPTIONS);
  examples(command, usage);
  return command.action(
    action(factory, async (ctx, [id, propertyId]) => {
      const assignment = requireUuid(id, 'assignment id');
      const property = requireUuid(propertyId, 'property id');
      const api = await ctx.api();
      const answer = await api.send<unknown>(mode.method, fillPath(ASSIGNMENT_PROPERTY_LINK, { id: assignment, propertyId: property }));
      ctx.io.notice(mode.done(property, assignment));
      // The service may answer with the assignment as it now is, or with nothing (204).
      if (isRecord(answer)) await writeRecord(ctx, answer, RESOURCES.assignments.view);
    }),
  );
}
