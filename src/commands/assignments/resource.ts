import { UPDATED_SINCE, type ResourceSpec } from '../shared/resource.js';

export const ASSIGNMENTS: ResourceSpec = {
  singular: 'assignment',
  path: '/api/assignments',
  view: {
    label: 'assignments',
    columns: ['id', 'number', 'status', 'clientId', 'dueDate', 'fee.amount', 'fee.currency', 'reportType'],
  },
  filters: [
    // Passed through as given: the service owns the states (see `appraisal ref enums`).
    { flags: '--status <status>', description: 'only assignments in this status (see `appraisal ref enums`)', param: 'status' },
    { flags: '--client <id>', description: 'only assignments of this client', param: 'clientId', kind: 'uuid' },
    { flags: '--property <id>', description: 'only assignments linked to this property', param: 'propertyId', kind: 'uuid' },
    UPDATED_SINCE,
  ],
};

/** The properties linked to one assignment, and one link. */
export const ASSIGNMENT_PROPERTIES = `${ASSIGNMENTS.path}/{id}/properties`;
export const ASSIGNMENT_PROPERTY_LINK = `${ASSIGNMENT_PROPERTIES}/{propertyId}`;
