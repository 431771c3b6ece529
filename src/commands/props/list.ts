import type { Factory } from '../../core/command.js';
import { listVerb } from '../shared/list.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  listVerb(factory, RESOURCES.props, [
    'appraisal props list',
    'appraisal props list --type industrial --updated-since 2026-01-01 -o csv --out industrial.csv',
    'appraisal props list -o ndjson --concurrency 8 | jq .name',
  ]);
