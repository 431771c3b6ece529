// The MCP catalogue and command lines, from the real declarations: which verbs are tools, what
// their inputs are, and that no input can become a flag the tool does not declare.
import { describe, expect, it } from 'vitest';
import { loadAllNouns } from '../../../../src/commands/registry.js';
import { verbsOf } from '../../../../src/core/verb.js';
import { catalogue, toolOf, type Tool } from '../../../../src/commands/mcp/catalogue.js';
import { commandLine, ToolInputError } from '../../../../src/commands/mcp/call.js';
import { inlineSchema } from '../../../../src/commands/mcp/inline-schema.js';
import { scopesForTools } from '../../../../src/commands/mcp/lease.js';

async function tools(allowWrite: boolean, production = false): Promise<Tool[]> {
  return catalogue(verbsOf(await loadAllNouns()), { allowWrite, production });
}

describe('the MCP catalogue', () => {
  it('offers read tools always, write tools when allowed, never deletes', async () => {
    const read = (await tools(false)).map((tool) => tool.name);
    expect(read).toContain('props_list');
    expect(read.some((name) => name.endsWith('_create'))).toBe(false);
    const write = (await tools(true)).map((tool) => tool.name);
    expect(write).toEqual(expect.arrayContaining(['props_create', 'clients_update', 'assignments_link']));
    expect(write.some((name) => /_(delete|unlink)$/.test(name))).toBe(false);
    expect((await tools(true, true)).map((tool) => tool.name)).toEqual(read);
  });

  it('gives a list its filters, a cap and fields, never the file-writing flags', async () => {
    const list = (await tools(false)).find((tool) => tool.name === 'props_list')!;
    const properties = Object.keys(list.inputSchema.properties);
    expect(properties).toEqual(expect.arrayContaining(['type', 'updated_since', 'max_items', 'fields', 'query']));
    for (const flag of ['out', 'resume', 'restart', 'split_rows', 'wide']) expect(properties).not.toContain(flag);
    expect(list.inputSchema.additionalProperties).toBe(false);
  });

  it('puts arguments after -- and values inside --flag=value, so no input is read as a flag', async () => {
    const get = (await tools(false)).find((tool) => tool.name === 'props_get')!;
    const { argv } = commandLine(get, { id: '--out=/etc/passwd' });
    expect(argv.slice(-2)).toEqual(['--', '--out=/etc/passwd']);
    const list = (await tools(false)).find((tool) => tool.name === 'props_list')!;
    expect(commandLine(list, { type: '--out=x', max_items: 5 }).argv).toEqual(expect.arrayContaining(['--type=--out=x', '--max-items=6']));
    expect(() => commandLine(list, { out: 'x.csv' })).toThrow(ToolInputError);
    expect(() => commandLine(list, { max_items: 101 })).toThrow(/max_items/);
    expect(() => commandLine(get, { id: { nested: true } })).toThrow(/id must be a string/);
  });

  it("takes an option the verb says the server sets from the server's value only, and is no tool without it", async () => {
    const verbs = verbsOf(await loadAllNouns());
    expect(catalogue(verbs, { allowWrite: false, production: false }).some((tool) => tool.name === 'sql')).toBe(false);
    const offered = catalogue(verbs, { allowWrite: false, production: false, server: { sql: 'duckdb:/srv/org.duckdb' } });
    const sql = offered.find((tool) => tool.name === 'sql')!;
    expect(Object.keys(sql.inputSchema.properties).sort()).toEqual(['fields', 'max_items', 'statement']);
    const { argv } = commandLine(sql, { statement: '--to=duckdb:/etc/x' });
    expect(argv).toContain('--to=duckdb:/srv/org.duckdb');
    // The flags are the server's; the assistant's text stays an argument after --.
    expect(argv.slice(0, argv.indexOf('--')).filter((word) => word.startsWith('--to'))).toEqual(['--to=duckdb:/srv/org.duckdb']);
    expect(argv.slice(-2)).toEqual(['--', '--to=duckdb:/etc/x']);
    expect(() => commandLine(sql, { statement: 'SELECT 1', to: 'duckdb:/etc/x' })).toThrow(/sql takes no to/);
    const schema = catalogue(verbs, { allowWrite: false, production: false, server: { sql: 'duckdb:/srv/org.duckdb', sqlSchema: 'acme' } });
    expect(
      commandLine(
        schema.find((tool) => tool.name === 'sql')!,
        { statement: 'SELECT 1' },
      ).argv,
    ).toContain('--schema=acme');
  });

  it('derives the narrowest scopes a lease needs from the tools operations', async () => {
    expect([...scopesForTools(await tools(false))].sort()).toEqual([
      'assignments:read',
      'clients:read',
      'files:read',
      'properties:read',
      'reference:read',
    ]);
    const write = scopesForTools(await tools(true));
    expect(write).toContain('properties:write');
    expect(write.some((scope) => scope.endsWith(':delete'))).toBe(false);
  });

  it('reads required options and lists from the declaration, not from its words', async () => {
    const all = await tools(true);
    expect(all.find((tool) => tool.name === 'contacts_create')!.inputSchema.required).toEqual(expect.arrayContaining(['client', 'data']));
    expect(all.find((tool) => tool.name === 'contacts_list')!.inputSchema.required).toEqual(['client']);
    expect(all.filter((tool) => tool.isList).map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['props_list', 'contacts_list', 'ref_designations', 'assignments_properties']),
    );
    expect(all.find((tool) => tool.name === 'props_get')!.isList).toBe(false);
    const option = { flags: '--name <name>', description: 'says (required) but is not' };
    const verb = { name: 'y', summary: 's', takes: [], calls: 'none' as const, examples: [], tool: 'read' as const, run: async () => {} };
    expect(toolOf('x y', { ...verb, options: [option] })!.inputSchema.required).toBeUndefined();
    const declared = toolOf('x y', { ...verb, lists: true, options: [{ ...option, description: 'the name', required: true }] })!;
    expect(declared.inputSchema.required).toEqual(['name']);
    expect(declared.isList).toBe(true);
  });

  it('a verb without a tool kind is not a tool', () => {
    expect(toolOf('x y', { name: 'y', summary: 's', takes: [], calls: 'none', examples: [], run: async () => {} })).toBeUndefined();
  });
});

describe('inlineSchema', () => {
  it('copies local references in and cuts loops', () => {
    const document = {
      components: {
        schemas: {
          A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } },
          B: { allOf: [{ $ref: '#/components/schemas/A' }] },
        },
      },
    };
    const inlined = inlineSchema({ $ref: '#/components/schemas/A' }, document) as { properties: { b: { allOf: unknown[] } } };
    expect(inlined.properties.b.allOf).toEqual([{}]);
    expect(inlineSchema({ $ref: 'https://elsewhere.example/x.json' }, document)).toEqual({});
  });
});
