// `appraisal contacts`: a client's contacts, declared from the resource table (core/resources.ts).
// The noun's summary is the registry's (commands/registry.ts); its verbs are these declarations.
import { RESOURCES } from '../../core/resources.js';
import type { Verb } from '../../core/verb.js';
import { createVerb, deleteVerb, getVerb, updateVerb } from '../shared/crud.js';
import { importVerb } from '../import/import-verb.js';
import { listVerb } from '../shared/list.js';

const verbs: readonly Verb[] = [
  listVerb(RESOURCES.contacts, [
    'appraisal contacts list --client 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal contacts list --client CLIENT_ID -o csv --fields firstName,lastName,email',
  ]),
  getVerb(RESOURCES.contacts, [
    'appraisal contacts get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal contacts get ID -o json --fields firstName,lastName,email',
  ]),
  createVerb(RESOURCES.contacts, [
    'appraisal contacts create --client CLIENT_ID -f firstName=Dana -f lastName=Reyes -f email=dana.reyes@example.com',
    'appraisal contacts create --client CLIENT_ID --data @contact.json',
  ]),
  updateVerb(RESOURCES.contacts, [
    "appraisal contacts update ID -f title='Chief Appraiser'",
    'appraisal contacts update ID -f phone=+1-617-555-0142',
  ]),
  deleteVerb(RESOURCES.contacts, ['appraisal contacts delete ID', 'appraisal contacts delete ID --yes   # in scripts']),
  importVerb(RESOURCES.contacts, [
    'appraisal contacts import contacts.csv --client CLIENT_ID --match email',
    'appraisal contacts import contacts.csv --match email --dry-run',
  ]),
];

export default verbs;
