import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../../src/core/errors.js';
import { runAttach } from '../../../../src/commands/files/attach.js';
import { apiContext } from '../fake-api.js';

const FILE_ID = '6b1f5f0e-3c1a-4f7e-9d3b-2a1c0e9f8d7c';
const TARGET = '3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10';

describe('files attach', () => {
  it.each([
    [{ property: TARGET }, 'property'],
    [{ assignment: TARGET }, 'assignment'],
  ])('posts one attachment (%o) and prints the answer', async (flags, targetType) => {
    const fake = apiContext({ send: () => ({ id: FILE_ID, attachments: [{ targetType, targetId: TARGET }] }) });
    await runAttach(fake.ctx, FILE_ID, flags);
    expect(fake.calls).toEqual([{ method: 'POST', path: `/api/files/${FILE_ID}/attachments`, body: { targetType, targetId: TARGET } }]);
    expect(JSON.parse(fake.stdout())).toMatchObject({ id: FILE_ID });
  });

  it('fails with exit 9 when the answer is not a record with an id (it printed `{}` and exited 0)', async () => {
    const fake = apiContext({ send: () => ({ attachments: [{ targetType: 'property', targetId: TARGET }] }) });
    const error = await runAttach(fake.ctx, FILE_ID, { property: TARGET }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toBe(`POST /api/files/${FILE_ID}/attachments: the answer is not a record with a string id`);
    expect(fake.stdout()).toBe('');
  });

  it.each([[{}], [{ property: TARGET, assignment: TARGET }]])('needs exactly one target (%o)', async (flags) => {
    const fake = apiContext();
    await expect(runAttach(fake.ctx, FILE_ID, flags)).rejects.toThrow(
      'files attach needs exactly one of --property ID and --assignment ID',
    );
    expect(fake.calls).toEqual([]);
  });
});
