// Runs in every test file (vitest setupFiles): removes the temporary directories it made, and hands
// core the registry's declared verbs as main.ts does, for commands tested without main().
import { afterAll } from 'vitest';
import { loadAllNouns } from '../../src/commands/registry.js';
import { provideDeclarations } from '../../src/core/verb-list.js';
import { removeTempDirs } from './temp.js';

provideDeclarations(loadAllNouns);

afterAll(() => removeTempDirs());
