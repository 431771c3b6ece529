import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../../src/core/errors.js';
import { enumRows, runEnums } from '../../../../src/commands/ref/enums.js';
import { apiContext } from '../fake-api.js';

const ENUMS = {
  propertyTypes: ['office', 'retail'],
  assignmentStatuses: ['draft', 'completed'],
  reportTypes: [{ code: 'form_1004', name: 'URAR' }],
};

describe('ref enums', () => {
  it('makes one row per enum', () => {
    expect(enumRows(ENUMS, true)).toEqual([
      { name: 'propertyTypes', values: 'office, retail' },
      { name: 'assignmentStatuses', values: 'draft, completed' },
      { name: 'reportTypes', values: 'form_1004' },
    ]);
    expect(enumRows(ENUMS, false)[0]).toEqual({ name: 'propertyTypes', values: ['office', 'retail'] });
  });

  it('prints the service object as it is for json', async () => {
    const fake = apiContext({ get: () => ENUMS });
    await runEnums(fake.ctx);
    expect(fake.calls).toEqual([{ method: 'GET', path: '/api/reference/enums' }]);
    expect(JSON.parse(fake.stdout())).toEqual(ENUMS);
  });

  it('prints rows for csv and ndjson', async () => {
    const csv = apiContext({ get: () => ENUMS }, { globals: { output: 'csv' } });
    await runEnums(csv.ctx);
    expect(csv.stdout()).toBe(
      'name,values\r\npropertyTypes,"office, retail"\r\nassignmentStatuses,"draft, completed"\r\nreportTypes,form_1004\r\n',
    );
    const ndjson = apiContext({ get: () => ENUMS }, { globals: { output: 'ndjson' } });
    await runEnums(ndjson.ctx);
    expect(ndjson.stdout().split('\n')[0]).toBe('{"name":"propertyTypes","values":["office","retail"]}');
  });

  it('prints a wrapped key/value table with every value', async () => {
    const table = apiContext(
      { get: () => ({ ...ENUMS, clientTypes: Array.from({ length: 12 }, (_, i) => `client_type_${i}`) }) },
      { globals: { output: 'table' } },
    );
    await runEnums(table.ctx);
    expect(table.stdout()).toMatch(/│ propertyTypes\s+│ office, retail\s+│/);
    expect(table.stdout().replace(/[│\s]/g, '')).toContain(Array.from({ length: 12 }, (_, i) => `client_type_${i}`).join(','));
  });

  it('refuses an answer that is not an object', async () => {
    const fake = apiContext({ get: () => ['office'] });
    await expect(runEnums(fake.ctx)).rejects.toBeInstanceOf(ContractError);
  });
});
