// The seeded records of a family the mock serves generically: each one made from the record schema
// the description publishes (its get or list answer), so a new family needs no generator of its own.
// Values follow the schema (an enum's values, a format, a length, a range); optional fields are
// sometimes left out, as in the hand-written families. Deterministic per (seed, family, index).
import type { StoredRecord } from '../state/records.js';
import type { FieldSpec, RecordSpec } from '../validation/field-spec.js';
import { isoTimestamp } from './fast-format.js';
import type { Prng } from './prng.js';
import { isoDate, SEED_PERIOD_START, SeededFamily } from './seeded-family.js';

const SERVER_MANAGED = new Set(['id', 'createdAt', 'updatedAt']);
const DAY_MS = 86_400_000;

/** What the state needs to seed a generically served family: its name and the spec of its records. */
export interface StandardFamilySeed {
  name: string;
  recordSpec: RecordSpec;
}

export function seededStandardFamily(family: StandardFamilySeed, options: { seed: number; records: number }): SeededFromSchema {
  return new SeededFromSchema(family.name, options.seed, options.records, family.recordSpec);
}

export class SeededFromSchema extends SeededFamily<StoredRecord> {
  constructor(
    family: string,
    seed: number,
    count: number,
    private readonly spec: RecordSpec,
  ) {
    super(family, seed, count);
  }

  recordAt(index: number): StoredRecord {
    const rng = this.rngAt(index);
    const { createdAt, updatedAt } = this.stamps(rng, index);
    return { id: this.idAt(index), ...fieldsOf(this.spec, rng, index, ''), createdAt, updatedAt };
  }
}

function fieldsOf(spec: RecordSpec, rng: Prng, index: number, prefix: string): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(spec)) {
    if (prefix === '' && SERVER_MANAGED.has(name)) continue;
    if (!field.required && !rng.chance(0.8)) continue;
    const value = valueOf(field, rng, index, `${prefix}${name}`);
    if (value !== undefined) record[name] = value;
  }
  return record;
}

function valueOf(field: FieldSpec, rng: Prng, index: number, name: string): unknown {
  switch (field.type) {
    case 'enum':
      return field.values.length > 0 ? rng.pick(field.values) : undefined;
    case 'string':
      return stringOf(field, rng, index, name);
    case 'integer':
    case 'number': {
      const min = field.min ?? 0;
      const max = field.max ?? min + 1000;
      const value = min + rng.next() * (max - min);
      return field.type === 'integer' ? Math.min(max, Math.ceil(value)) : Math.round(value * 100) / 100;
    }
    case 'boolean':
      return rng.chance(0.5);
    case 'object':
      return fieldsOf(field.fields, rng, index, `${name}.`);
    case 'array':
      return Array.from({ length: field.minItems ?? 0 }, () => valueOf(field.items, rng, index, name));
  }
}

function stringOf(field: Extract<FieldSpec, { type: 'string' }>, rng: Prng, index: number, name: string): string {
  const when = SEED_PERIOD_START + rng.int(0, 700) * DAY_MS;
  switch (field.format) {
    case 'date':
      return isoDate(when);
    case 'date-time':
      return isoTimestamp(when);
    case 'email':
      return `${name.replace(/\W/g, '')}${index + 1}@example.com`;
    case 'uuid':
      // A well-formed id that names no record: the schema does not say which family it refers to.
      return `00000000-0000-4000-8000-${(index + 1).toString(16).padStart(12, '0')}`;
    default: {
      const text = `${name} ${index + 1}`;
      return text.slice(0, field.maxLength ?? text.length).padEnd(field.minLength ?? 0, 'x');
    }
  }
}
