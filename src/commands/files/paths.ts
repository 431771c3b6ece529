// Paths under one file (the family itself is in core/resources.ts).
import { RESOURCES } from '../../core/resources.js';

export const FILE_CONTENT = `${RESOURCES.files.path}/{id}/content`;
export const FILE_ATTACHMENTS = `${RESOURCES.files.path}/{id}/attachments`;
