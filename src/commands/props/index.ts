// `appraisal props`: the properties family, declared from the resource table (core/resources.ts).
// The noun's summary is the registry's (commands/registry.ts); its verbs are these declarations.
import { RESOURCES } from '../../core/resources.js';
import type { Verb } from '../../core/verb.js';
import { createVerb, deleteVerb, getVerb, updateVerb } from '../shared/crud.js';
import { importVerb } from '../import/import-verb.js';
import { listVerb } from '../shared/list.js';

const verbs: readonly Verb[] = [
  listVerb(RESOURCES.props, [
    'appraisal props list',
    'appraisal props list --type industrial --updated-since 2026-01-01 -o csv --out industrial.csv',
    'appraisal props list -o ndjson --concurrency 8 | jq .name',
  ]),
  getVerb(RESOURCES.props, [
    'appraisal props get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal props get ID -o json --fields id,name,address.city',
  ]),
  createVerb(RESOURCES.props, [
    'appraisal props create --data @property.json',
    "appraisal props create -f name='Harbor Point' -f propertyType=office -f address.line1='1 Pier Rd' -f address.city=Boston -f address.region=MA -f address.postalCode=02110 -f address.country=US",
  ]),
  updateVerb(RESOURCES.props, [
    'appraisal props update ID -F yearBuilt=1998',
    'appraisal props update ID --data \'{"name":"Harbor Point II"}\'',
  ]),
  deleteVerb(RESOURCES.props, ['appraisal props delete ID', 'appraisal props delete ID --yes   # in scripts']),
  importVerb(RESOURCES.props, [
    'appraisal props import properties.csv --match parcelNumber --dry-run',
    'appraisal props import properties.csv --match parcelNumber',
    'appraisal props import edited.csv --match id --results edited.results.csv',
  ]),
];

export default verbs;
