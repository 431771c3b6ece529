// `assignments link|unlink ID PROPERTY_ID`: PUT or DELETE one link. Whether a link may be made or
// removed (say, in the assignment's current status) is the service's call: its 409/422 message
// reaches the user as it is.
import { requireUuid } from '../../core/ids.js';
import { writeRecord } from '../../output/index.js';
import { fillPath } from '../../core/description/operations.js';
import { ASSIGNMENT_PROPERTY_LINK } from './paths.js';
import { RESOURCES } from '../../core/resources.js';
import { OUTPUT_OPTIONS, SERVICE_OPTIONS } from '../../core/global-options.js';
import { defineVerb, type Verb } from '../../core/verb.js';

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

export function propertyLinkVerb(mode: LinkMode, examples: readonly string[]): Verb {
  return defineVerb({
    name: mode.name,
    writesOne: true,
    // Linking adds; unlinking removes, which an assistant is never offered (as for delete).
    ...(mode.method === 'PUT' ? { tool: 'write' as const } : {}),
    summary: mode.description,
    arguments: [
      { name: 'id', description: 'assignment id (UUID)', required: true },
      { name: 'property-id', description: 'property id (UUID)', required: true },
    ],
    takes: [...SERVICE_OPTIONS, ...OUTPUT_OPTIONS],
    calls: [{ method: mode.method, path: ASSIGNMENT_PROPERTY_LINK }],
    examples,
    async run(ctx, [id, propertyId]) {
      const assignment = requireUuid(id, 'assignment id');
      const property = requireUuid(propertyId, 'property id');
      const api = await ctx.api();
      const answer = await api.send<unknown>(mode.method, fillPath(ASSIGNMENT_PROPERTY_LINK, { id: assignment, propertyId: property }));
      ctx.io.notice(mode.done(property, assignment));
      // The service may answer with the assignment as it now is, or with nothing (204).
      if (isRecord(answer)) await writeRecord(ctx, answer, RESOURCES.assignments.view);
      // A script that gave --out looks for the file: say why there is none.
      else if (ctx.globals.out !== undefined && ctx.globals.out !== '-') {
        ctx.io.notice(
          `nothing written to ${ctx.globals.out}: the service sent no record back (see it with \`appraisal assignments get ${assignment}\`)`,
        );
      }
    },
  });
}
