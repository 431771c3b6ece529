import type { ResourceSpec } from '../shared/resource.js';

export const FILES: ResourceSpec = {
  singular: 'file',
  path: '/api/files',
  view: {
    label: 'files',
    columns: ['id', 'name', 'contentType', 'size', 'sha256', 'createdAt'],
  },
};

export const FILE_CONTENT = `${FILES.path}/{id}/content`;
export const FILE_ATTACHMENTS = `${FILES.path}/{id}/attachments`;
