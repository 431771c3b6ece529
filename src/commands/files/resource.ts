import { UPDATED_SINCE, type ResourceSpec } from '../shared/resource.js';

export const FILES: ResourceSpec = {
  singular: 'file',
  path: '/api/files',
  view: {
    label: 'files',
    columns: ['id', 'name', 'contentType', 'size', 'sha256', 'createdAt'],
  },
  filters: [
    { flags: '--property <id>', description: 'only files attached to this property', param: 'propertyId', kind: 'uuid' },
    { flags: '--assignment <id>', description: 'only files attached to this assignment', param: 'assignmentId', kind: 'uuid' },
    UPDATED_SINCE,
  ],
};

export const FILE_CONTENT = `${FILES.path}/{id}/content`;
export const FILE_ATTACHMENTS = `${FILES.path}/{id}/attachments`;
