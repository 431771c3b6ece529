// /api/files: multipart upload (streamed to the temp dir, sized and hashed on the way), list,
// metadata, download (exact content-length), attach to a property or assignment, delete.
import { readJsonObject } from '../http/json-body.js';
import { MockHttpError, notFound, validationFailed, type FieldProblem } from '../http/http-error.js';
import type { MockResponse } from '../http/mock-response.js';
import { noContent, successResponse } from '../http/mock-response.js';
import { receiveUpload } from '../http/multipart-upload.js';
import { param, type Handler, type RequestContext } from '../http/request-context.js';
import type { FileAttachment, FileRecord } from '../state/records.js';
import { validateFields } from '../validation/field-spec.js';
import { ATTACHMENT_SPEC } from '../validation/record-specs.js';
import { updatedSince, type FilterSpec } from './list-filters.js';
import { findOr404, getHandler, insertNew, listHandler, saveChanged, type ResourceDefinition } from './resource-handlers.js';

function attachedTo(name: string, targetType: FileAttachment['targetType']): FilterSpec<FileRecord> {
  return {
    name,
    build: (value) => ({
      matches: (record) =>
        Array.isArray(record.attachments) && record.attachments.some((a) => a.targetType === targetType && a.targetId === value),
    }),
  };
}

const files: ResourceDefinition<FileRecord> = {
  singular: 'file',
  collection: (state) => state.files,
  spec: {},
  filters: [attachedTo('propertyId', 'property'), attachedTo('assignmentId', 'assignment'), updatedSince((state) => state.seeded.files)],
};

export const listFiles = listHandler(files);
export const getFile = getHandler(files);

function targetProblems(ctx: RequestContext, targetType: string, targetId: string, field: string): FieldProblem[] {
  const collection = targetType === 'property' ? ctx.state.properties : ctx.state.assignments;
  return collection.has(targetId) ? [] : [{ field, message: `no ${targetType} with id ${targetId}` }];
}

export const uploadFile: Handler = async (ctx) => {
  const upload = await receiveUpload(ctx.req, ctx.uploadDir, ctx.maxUploadBytes);
  const attachments: FileAttachment[] = [];
  const problems: FieldProblem[] = [];
  for (const [field, targetType] of [
    ['propertyId', 'property'],
    ['assignmentId', 'assignment'],
  ] as const) {
    const targetId = upload.fields[field]?.trim();
    if (!targetId) continue;
    const found = targetProblems(ctx, targetType, targetId, field);
    if (found.length > 0) problems.push(...found);
    else attachments.push({ targetType, targetId });
  }
  if (problems.length > 0) {
    ctx.state.removeUploadPath(upload.path);
    throw validationFailed(problems);
  }
  const record = insertNew<FileRecord>(
    ctx.state.files,
    { name: upload.fileName, contentType: upload.contentType, size: upload.size, sha256: upload.sha256, attachments },
    ctx,
  );
  ctx.state.addUpload(record.id, upload.path);
  return successResponse(201, record);
};

function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const downloadFile: Handler = (ctx): MockResponse => {
  const file = findOr404(ctx.state.files, 'file', param(ctx, 'id'));
  const content = ctx.state.contentOf(file);
  if (!content) throw new MockHttpError(410, 'CONTENT_GONE', `the content of file ${file.id} is no longer available`);
  const headers = { 'content-disposition': contentDisposition(file.name) };
  if (content.kind === 'sample')
    return { status: 200, headers, body: { kind: 'bytes', data: content.document.content, contentType: file.contentType } };
  return { status: 200, headers, body: { kind: 'file', path: content.path, size: file.size, contentType: file.contentType } };
};

export const attachFile: Handler = async (ctx) => {
  findOr404(ctx.state.files, 'file', param(ctx, 'id'));
  const body = await readJsonObject(ctx.req);
  const problems = validateFields(body, ATTACHMENT_SPEC);
  if (problems.length === 0) problems.push(...targetProblems(ctx, body.targetType as string, body.targetId as string, 'targetId'));
  if (problems.length > 0) throw validationFailed(problems);
  const file = findOr404(ctx.state.files, 'file', param(ctx, 'id'));
  const attachment: FileAttachment = { targetType: body.targetType as FileAttachment['targetType'], targetId: body.targetId as string };
  const already = file.attachments.some((a) => a.targetType === attachment.targetType && a.targetId === attachment.targetId);
  const saved = already ? file : saveChanged(ctx.state.files, file, { ...file, attachments: [...file.attachments, attachment] }, ctx);
  return successResponse(200, saved);
};

export const deleteFile: Handler = (ctx) => {
  const id = param(ctx, 'id');
  if (!ctx.state.files.delete(id)) throw notFound('file', id);
  ctx.state.removeUpload(id);
  return noContent();
};
