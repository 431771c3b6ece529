// A small declarative validator for request bodies: required fields and types. Fields a spec does
// not name are kept untouched (the real service may have more fields than the mock knows).
import type { FieldProblem } from '../http/http-error.js';
import type { JsonObject } from '../state/records.js';

interface Common {
  required?: boolean;
  /** Optional fields may be null unless this is false. */
  nullable?: boolean;
}

export type FieldSpec =
  | (Common & { type: 'string'; minLength?: number; maxLength?: number; format?: 'email' | 'date' | 'date-time' | 'uuid' | 'currency' })
  | (Common & { type: 'enum'; values: readonly string[] })
  | (Common & { type: 'integer' | 'number'; min?: number; max?: number })
  | (Common & { type: 'boolean' })
  | (Common & { type: 'object'; fields: RecordSpec })
  | (Common & { type: 'array'; items: FieldSpec; minItems?: number; unique?: boolean });

export type RecordSpec = Readonly<Record<string, FieldSpec>>;

const FORMATS: Readonly<Record<string, { pattern: RegExp; hint: string }>> = {
  email: { pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, hint: 'an email address' },
  date: { pattern: /^\d{4}-\d{2}-\d{2}$/, hint: 'a date (YYYY-MM-DD)' },
  'date-time': {
    pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/,
    hint: 'an ISO 8601 date-time with a time zone',
  },
  uuid: { pattern: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, hint: 'a UUID' },
  currency: { pattern: /^[A-Z]{3}$/, hint: 'a three-letter ISO 4217 currency code' },
};

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function checkValue(value: unknown, spec: FieldSpec, field: string, problems: FieldProblem[]): void {
  if (value === null) {
    if (spec.nullable === false || spec.required) problems.push({ field, message: 'must not be null' });
    return;
  }
  switch (spec.type) {
    case 'string': {
      if (typeof value !== 'string') return void problems.push({ field, message: `must be a string, got ${describe(value)}` });
      if (spec.minLength !== undefined && value.trim().length < spec.minLength) {
        return void problems.push({
          field,
          message: spec.minLength === 1 ? 'must not be empty' : `must have at least ${spec.minLength} characters`,
        });
      }
      if (spec.maxLength !== undefined && value.length > spec.maxLength)
        return void problems.push({ field, message: `must have at most ${spec.maxLength} characters` });
      const format = spec.format ? FORMATS[spec.format] : undefined;
      if (
        format &&
        (!format.pattern.test(value) || ((spec.format === 'date' || spec.format === 'date-time') && Number.isNaN(Date.parse(value))))
      ) {
        problems.push({ field, message: `must be ${format.hint}, got "${value}"` });
      }
      return;
    }
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) {
        problems.push({
          field,
          message: `must be one of ${spec.values.join(', ')}; got ${typeof value === 'string' ? `"${value}"` : describe(value)}`,
        });
      }
      return;
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        return void problems.push({ field, message: `must be a number, got ${describe(value)}` });
      if (spec.type === 'integer' && !Number.isInteger(value))
        return void problems.push({ field, message: `must be a whole number, got ${value}` });
      if (spec.min !== undefined && value < spec.min)
        return void problems.push({ field, message: `must be at least ${spec.min}, got ${value}` });
      if (spec.max !== undefined && value > spec.max) problems.push({ field, message: `must be at most ${spec.max}, got ${value}` });
      return;
    case 'boolean':
      if (typeof value !== 'boolean') problems.push({ field, message: `must be true or false, got ${describe(value)}` });
      return;
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value))
        return void problems.push({ field, message: `must be an object, got ${describe(value)}` });
      problems.push(...validateFields(value as JsonObject, spec.fields, `${field}.`));
      return;
    case 'array': {
      if (!Array.isArray(value)) return void problems.push({ field, message: `must be an array, got ${describe(value)}` });
      if (spec.minItems !== undefined && value.length < spec.minItems)
        return void problems.push({ field, message: `must have at least ${spec.minItems} item(s)` });
      value.forEach((item, index) => {
        if (item === null) problems.push({ field: `${field}[${index}]`, message: 'must not be null' });
        else checkValue(item, spec.items, `${field}[${index}]`, problems);
      });
      if (spec.unique && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) {
        problems.push({ field, message: 'must not contain duplicates' });
      }
      return;
    }
  }
}

/** Every problem with a record against a spec (empty when valid). */
export function validateFields(record: JsonObject, spec: RecordSpec, prefix = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [name, fieldSpec] of Object.entries(spec)) {
    const value = record[name];
    if (value === undefined) {
      if (fieldSpec.required) problems.push({ field: `${prefix}${name}`, message: 'is required' });
      continue;
    }
    checkValue(value, fieldSpec, `${prefix}${name}`, problems);
  }
  return problems;
}
