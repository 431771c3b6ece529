// The layout's arrows point one way (docs/ARCHITECTURE.md): no import cycle anywhere in src, type-only
// imports included (they are how cycles crept in before). ESLint's no-restricted-imports keeps core
// from importing commands/output and the mock from importing the CLI; this keeps the graph acyclic.
import madge from 'madge';
import { describe, expect, it } from 'vitest';

describe('module graph', () => {
  it('has no circular imports in src', async () => {
    const graph = await madge('src', { fileExtensions: ['ts'] });
    // Sanity: the graph really covers the source tree (a misconfigured madge would find no files and no cycles).
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(150);
    expect(graph.circular()).toEqual([]);
  });
});
