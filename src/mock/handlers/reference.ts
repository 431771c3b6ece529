// /api/reference: the enums (`{success, data}` envelope) and the designations (a collection; in the
// alternative description, every one in a `{success, data: [...]}` answer).
import { ASSIGNMENT_STATUSES, CLIENT_TYPES, PROPERTY_TYPES, REPORT_TYPES } from '../data/enums.js';
import { successResponse } from '../http/mock-response.js';
import { collectionResponse, pageRequest } from '../http/pagination.js';
import type { Handler } from '../http/request-context.js';

export const getReferenceEnums: Handler = () =>
  successResponse(200, {
    propertyTypes: [...PROPERTY_TYPES],
    assignmentStatuses: [...ASSIGNMENT_STATUSES],
    reportTypes: [...REPORT_TYPES],
    clientTypes: [...CLIENT_TYPES],
  });

export const listDesignations: Handler = (ctx) => {
  const page = pageRequest(ctx.query);
  return collectionResponse(ctx.state.designations.query([], page.offset, page.limit), page);
};

/** The alternative description's designations: all of them, `{success, data: [...]}`, no pages. */
export const listAllDesignations: Handler = (ctx) => {
  const collection = ctx.state.designations;
  return successResponse(200, collection.query([], 0, Number.MAX_SAFE_INTEGER).items);
};
