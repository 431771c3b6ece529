// Shared by the auth, keychain and profiles e2e tests: talk to the mock's key routes directly (as an
// admin would, through the one admin client, test/helpers/mock-admin.ts), and look at what the CLI
// left on disk.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MockServer } from '../helpers/mock.js';
import { adminOf } from '../helpers/mock-admin.js';

export interface CreatedKey {
  id: string;
  prefix: string;
  secret: string;
  expiresAt?: string | null;
}

function call(mock: MockServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return adminOf(mock).call(method, path, body);
}

/** A new key made by the mock's admin (POST /api/keys). */
export async function createKey(
  mock: MockServer,
  options: { name?: string; scopes?: string[]; expiresAt?: string } = {},
): Promise<CreatedKey> {
  const { status, body } = await call(mock, 'POST', '/api/keys', {
    name: options.name ?? 'e2e',
    scopes: options.scopes ?? ['api:read'],
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  });
  if (status !== 201) throw new Error(`POST /api/keys answered ${status}: ${JSON.stringify(body)}`);
  const record = ((body as { data?: unknown }).data ?? body) as CreatedKey;
  if (typeof record.secret !== 'string') throw new Error(`POST /api/keys gave no secret: ${JSON.stringify(body)}`);
  return record;
}

export async function revokeKey(mock: MockServer, id: string): Promise<void> {
  const { status } = await call(mock, 'DELETE', `/api/keys/${id}`);
  if (status !== 204 && status !== 200) throw new Error(`DELETE /api/keys/${id} answered ${status}`);
}

/** Every regular file under a directory, recursively. */
export function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Files under `dir` whose bytes contain `secret`. */
export function filesContaining(dir: string, secret: string): string[] {
  return filesUnder(dir).filter((file) => readFileSync(file).includes(secret));
}

export function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}
