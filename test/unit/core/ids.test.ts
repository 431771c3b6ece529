import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { isUuid, requireUuid } from '../../../src/core/ids.js';

describe('requireUuid', () => {
  it('returns any 8-4-4-4-12 hex UUID exactly as given', () => {
    for (const id of [
      '123e4567-e89b-12d3-a456-426614174000',
      'A987FBC9-4BED-4078-8F07-9141BA07C9F3',
      '00000000-0000-0000-0000-000000000000',
      '01890a5d-ac96-774b-bcce-b302099a8057',
    ]) {
      expect(requireUuid(id, 'PROPERTY_ID')).toBe(id);
      expect(isUuid(id)).toBe(true);
    }
  });

  it('refuses anything else with a usage error naming the argument', () => {
    for (const bad of [
      '',
      'p1',
      '123e4567e89b12d3a456426614174000',
      '123e4567-e89b-12d3-a456-42661417400g',
      ' 123e4567-e89b-12d3-a456-426614174000',
    ]) {
      expect(() => requireUuid(bad, 'ID')).toThrow(UsageError);
    }
    expect(() => requireUuid('p1', 'PROPERTY_ID')).toThrow('PROPERTY_ID must be a UUID, got "p1"');
    expect(() => requireUuid(undefined, 'ID')).toThrow('ID is required (a UUID)');
  });

  it('keeps the message short and free of control characters', () => {
    let message = '';
    try {
      requireUuid(`\u001b[31mred${'x'.repeat(200)}`, 'ID');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toMatch(/[\u0000-\u001f]/);
    expect(message).toBe(`ID must be a UUID, got "\uFFFD[31mred${'x'.repeat(32)}…"`);
  });
});
