// /api/assignments: CRUD with filters (status, clientId, propertyId, updatedSince), numbering,
// one status rule (a completed or cancelled assignment cannot go back to draft/requested: 409), and
// the linked properties (list, link, unlink — both idempotent).
import { ASSIGNMENT_STATUSES, REOPEN_BLOCKED_TARGETS, TERMINAL_STATUSES } from '../data/enums.js';
import { assignmentNumber } from '../data/seeded-assignments.js';
import { MockHttpError, notFound, type FieldProblem } from '../http/http-error.js';
import { noContent } from '../http/mock-response.js';
import { collectionResponse, pageOfArray, pageRequest } from '../http/pagination.js';
import { param, type Handler } from '../http/request-context.js';
import type { AssignmentRecord, PropertyRecord } from '../state/records.js';
import { ASSIGNMENT_SPEC } from '../validation/record-specs.js';
import { exactMatch, updatedSince, type FilterSpec } from './list-filters.js';
import {
  createHandler,
  deleteHandler,
  findOr404,
  getHandler,
  listHandler,
  missingReference,
  saveChanged,
  updateHandler,
  type ResourceDefinition,
} from './resource-handlers.js';

const linkedTo: FilterSpec<AssignmentRecord> = {
  name: 'propertyId',
  build: (value) => ({ matches: (record) => Array.isArray(record.propertyIds) && record.propertyIds.includes(value) }),
};

const assignments: ResourceDefinition<AssignmentRecord> = {
  singular: 'assignment',
  collection: (state) => state.assignments,
  spec: ASSIGNMENT_SPEC,
  filters: [
    exactMatch('status', 'status', ASSIGNMENT_STATUSES),
    exactMatch('clientId', 'clientId'),
    linkedTo,
    updatedSince((state) => state.seeded.assignments),
  ],
  defaults(body, ctx) {
    const defaults: Record<string, unknown> = { status: 'draft', propertyIds: [] };
    if (body.number === undefined) defaults.number = assignmentNumber(new Date().getUTCFullYear(), ctx.state.nextAssignmentSequence++);
    return defaults;
  },
  checkReferences(record, ctx) {
    const problems: FieldProblem[] = missingReference(ctx.state.clients, 'clientId', 'client', record.clientId);
    (record.propertyIds as string[]).forEach((id, index) =>
      problems.push(...missingReference(ctx.state.properties, `propertyIds[${index}]`, 'property', id)),
    );
    return problems;
  },
  checkChange(previous, next) {
    if (TERMINAL_STATUSES.has(previous.status) && REOPEN_BLOCKED_TARGETS.has(next.status as string) && previous.status !== next.status) {
      throw new MockHttpError(
        409,
        'INVALID_STATUS_TRANSITION',
        `assignment ${previous.number} is ${previous.status} and cannot go back to ${String(next.status)}`,
      );
    }
  },
};

export const listAssignments = listHandler(assignments);
export const createAssignment = createHandler(assignments);
export const getAssignment = getHandler(assignments);
export const updateAssignment = updateHandler(assignments);
export const deleteAssignment = deleteHandler(assignments);

export const listAssignmentProperties: Handler = (ctx) => {
  const assignment = findOr404(ctx.state.assignments, 'assignment', param(ctx, 'id'));
  const page = pageRequest(ctx.query);
  const linked = assignment.propertyIds
    .map((id) => ctx.state.properties.get(id))
    .filter((record): record is PropertyRecord => record !== undefined);
  return collectionResponse(pageOfArray(linked, page), page);
};

export const linkAssignmentProperty: Handler = (ctx) => {
  const assignment = findOr404(ctx.state.assignments, 'assignment', param(ctx, 'id'));
  const propertyId = param(ctx, 'propertyId');
  if (!ctx.state.properties.has(propertyId)) throw notFound('property', propertyId);
  if (!assignment.propertyIds.includes(propertyId)) {
    saveChanged(ctx.state.assignments, assignment, { ...assignment, propertyIds: [...assignment.propertyIds, propertyId] }, ctx);
  }
  return noContent();
};

export const unlinkAssignmentProperty: Handler = (ctx) => {
  const assignment = findOr404(ctx.state.assignments, 'assignment', param(ctx, 'id'));
  const propertyId = param(ctx, 'propertyId');
  if (assignment.propertyIds.includes(propertyId)) {
    saveChanged(
      ctx.state.assignments,
      assignment,
      { ...assignment, propertyIds: assignment.propertyIds.filter((id) => id !== propertyId) },
      ctx,
    );
  }
  return noContent();
};
