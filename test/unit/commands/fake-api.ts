// An ApiClient fake that records every call and answers from handlers the test supplies, and a way
// to run a noun's commander tree in-process against a fake context.
import type { Command } from 'commander';
import type { ApiClient, DownloadResponse, HttpMethod, UploadOptions, UploadResult } from '../../../src/core/api-client.js';
import type { NounModule } from '../../../src/core/verb.js';
import { nounCommand } from '../../../src/core/verb-command.js';
import type { Context } from '../../../src/core/context.js';
import { fakeContext, type FakeContext, type FakeContextOptions } from '../../helpers/fake-context.js';

export interface ApiCall {
  method: HttpMethod | 'UPLOAD' | 'DOWNLOAD' | 'PAGINATE';
  path: string;
  body?: unknown;
  query?: unknown;
}

export interface FakeApiHandlers {
  get?: (path: string) => unknown;
  send?: (method: HttpMethod, path: string, body: unknown) => unknown;
  paginate?: (path: string) => Array<Record<string, unknown>>;
  upload?: (options: UploadOptions) => UploadResult | Promise<UploadResult>;
  download?: (path: string) => DownloadResponse;
}

function need<F>(handler: F | undefined, what: string): F {
  if (!handler) throw new Error(`unexpected ${what} call`);
  return handler;
}

export function fakeApi(handlers: FakeApiHandlers, calls: ApiCall[]): ApiClient {
  const api: Partial<ApiClient> = {
    baseUrl: 'https://api.test',
    credential: undefined,
    get: async <T>(path: string) => {
      calls.push({ method: 'GET', path });
      return need(handlers.get, 'get')(path) as T;
    },
    send: async <T>(method: HttpMethod, path: string, body?: unknown) => {
      calls.push({ method, path, body });
      return need(handlers.send, 'send')(method, path, body) as T;
    },
    async *paginate(path, options) {
      calls.push({ method: 'PAGINATE', path, query: options?.query });
      const records = need(handlers.paginate, 'paginate')(path) as Array<{ id: string }>;
      yield* records;
      return { count: records.length, total: records.length, duplicatesDropped: 0, warnings: [] };
    },
    upload: async (options) => {
      calls.push({ method: 'UPLOAD', path: options.path });
      return need(handlers.upload, 'upload')(options);
    },
    download: async (path) => {
      calls.push({ method: 'DOWNLOAD', path });
      return need(handlers.download, 'download')(path);
    },
    close: async () => {},
  };
  return api as ApiClient;
}

export interface ApiContext extends FakeContext {
  calls: ApiCall[];
}

/** A fake context whose API client answers from `handlers`; destructive verbs are pre-confirmed. */
export function apiContext(handlers: FakeApiHandlers = {}, options: FakeContextOptions = {}): ApiContext {
  const calls: ApiCall[] = [];
  const fake = fakeContext({
    session: {
      profileName: 'test',
      profile: undefined,
      baseUrl: 'https://api.test',
      origin: 'https://api.test:443',
      environment: 'local',
      caFile: undefined,
      credential: undefined,
    },
    ...options,
    globals: { yes: true, ...options.globals },
    api: fakeApi(handlers, calls),
  });
  return { ...fake, calls };
}

/** Run `args` against a noun's command tree, built with a factory that hands out `ctx`. */
export async function runNoun(module: NounModule, ctx: Context, args: string[]): Promise<void> {
  const noun = nounCommand({ name: 'noun', summary: 'noun under test' }, module, { context: () => ctx });
  const quiet = (command: Command) => {
    command.exitOverride();
    command.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
    command.commands.forEach(quiet);
  };
  quiet(noun);
  await noun.parseAsync(args, { from: 'user' });
}
