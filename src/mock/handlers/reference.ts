// /api/reference: the enums (`{success, data}` envelope) and the designations (a collection).
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
