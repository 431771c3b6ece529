// A failed call's lines in the words of the tool the assistant called: its inputs for the flags it
// has, and no hint that only names flags it cannot send.
import { describe, expect, it } from 'vitest';
import { loadAllNouns } from '../../../../src/commands/registry.js';
import { verbsOf } from '../../../../src/core/verb.js';
import { catalogue, type Tool } from '../../../../src/commands/mcp/catalogue.js';
import { toolWords } from '../../../../src/commands/mcp/tool-words.js';

async function tool(name: string): Promise<Tool> {
  return catalogue(verbsOf(await loadAllNouns()), { allowWrite: true, production: false }).find((candidate) => candidate.name === name)!;
}

describe('tool words', () => {
  it("names the tool's inputs where the command line names its flags", async () => {
    const list = await tool('props_list');
    expect(toolWords('error: --updated-since must be an ISO 8601 time, got "yesterday"', list)).toBe(
      'error: updated_since must be an ISO 8601 time, got "yesterday"',
    );
    expect(toolWords('error: --max-items must be at least 1\nhint: or use --fields id,name', list)).toBe(
      'error: max_items must be at least 1\nhint: or use fields id,name',
    );
    const contacts = await tool('contacts_create');
    expect(toolWords('error: contacts create needs --client ID', contacts)).toBe('error: contacts create needs client ID');
    // A tool always checks a record against the published schema: the way around it is not offered.
    const create = await tool('props_create');
    expect(toolWords('error: the request body does not match\nhint: fix those fields, or send it anyway with --no-validate', create)).toBe(
      'error: the request body does not match',
    );
  });

  it('leaves out a hint that names only flags the tool cannot send, and keeps every error line', async () => {
    const get = await tool('props_get');
    expect(toolWords('error: missing required argument id\nhint: run the command with --help for usage', get)).toBe(
      'error: missing required argument id',
    );
    expect(toolWords('error: --page does not apply here\nhint: paging is set with --page and --page-size', get)).toBe(
      'error: --page does not apply here',
    );
    expect(toolWords('error: not found\nhint: check the id', get)).toBe('error: not found\nhint: check the id');
  });
});
