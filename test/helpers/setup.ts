// Runs in every test file (vitest setupFiles): removes the temporary directories it made.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

afterAll(() => removeTempDirs());
