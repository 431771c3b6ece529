import type { Factory } from '../../core/command.js';
import { listVerb } from '../shared/list.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  listVerb(factory, RESOURCES.assignments, [
    'appraisal assignments list --status in_progress',
    'appraisal assignments list --client 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10 -o csv --out client-assignments.csv',
    'appraisal assignments list --updated-since 2026-01-01 -o ndjson | jq .number',
  ]);
