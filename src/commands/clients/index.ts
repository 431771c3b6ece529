// `appraisal clients`: the clients family, declared from the resource table (core/resources.ts).
// The noun's summary is the registry's (commands/registry.ts); its verbs are these declarations.
import { RESOURCES } from '../../core/resources.js';
import type { Verb } from '../../core/verb.js';
import { createVerb, deleteVerb, getVerb, updateVerb } from '../shared/crud.js';
import { importVerb } from '../import/import-verb.js';
import { listVerb } from '../shared/list.js';

const verbs: readonly Verb[] = [
  listVerb(RESOURCES.clients, [
    'appraisal clients list --type lender --search harbor',
    'appraisal clients list -o csv --fields id,name,clientType,email --out clients.csv',
  ]),
  getVerb(RESOURCES.clients, [
    'appraisal clients get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal clients get ID -o json | jq .address',
  ]),
  createVerb(RESOURCES.clients, [
    "appraisal clients create -f name='First Harbor Bank' -f clientType=lender -f email=orders@firstharbor.example",
    'appraisal clients create --data @client.json',
  ]),
  updateVerb(RESOURCES.clients, [
    'appraisal clients update ID -f phone=+1-617-555-0100',
    "appraisal clients update ID -f name='First Harbor Bank, N.A.' -f email=appraisals@firstharbor.example",
  ]),
  deleteVerb(RESOURCES.clients, ['appraisal clients delete ID', 'appraisal clients delete ID --yes   # in scripts']),
  importVerb(RESOURCES.clients, [
    'appraisal clients import clients.csv --match email --dry-run',
    'appraisal clients import clients.ndjson --match email',
  ]),
];

export default verbs;
