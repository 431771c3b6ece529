// `appraisal assignments`: the family's CRUD verbs from the resource table, plus its linked properties
// (`properties`, `link`, `unlink`). The noun's summary is the registry's (commands/registry.ts).
import { RESOURCES } from '../../core/resources.js';
import type { Verb } from '../../core/verb.js';
import { createVerb, deleteVerb, getVerb, updateVerb } from '../shared/crud.js';
import { importVerb } from '../import/import-verb.js';
import { collectionVerb, listVerb } from '../shared/list.js';
import { ASSIGNMENT_PROPERTIES } from './paths.js';
import { LINK, propertyLinkVerb, UNLINK } from './property-link.js';

const verbs: readonly Verb[] = [
  listVerb(RESOURCES.assignments, [
    'appraisal assignments list --status in_progress',
    'appraisal assignments list --client 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10 -o csv --out client-assignments.csv',
    'appraisal assignments list --updated-since 2026-01-01 -o ndjson | jq .number',
  ]),
  getVerb(RESOURCES.assignments, [
    'appraisal assignments get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal assignments get ID -o json --fields number,status,propertyIds',
  ]),
  createVerb(RESOURCES.assignments, [
    'appraisal assignments create --data @assignment.json',
    'appraisal assignments create -f clientId=CLIENT_ID -f reportType=appraisal_report -f dueDate=2026-03-31 -F fee.amount=3500 -f fee.currency=USD',
  ]),
  updateVerb(RESOURCES.assignments, [
    'appraisal assignments update ID -f status=accepted   # the service decides which changes are allowed',
    'appraisal assignments update ID -f dueDate=2026-04-15 -F fee.amount=4200 -f fee.currency=USD   # a fee is sent whole',
  ]),
  deleteVerb(RESOURCES.assignments, ['appraisal assignments delete ID', 'appraisal assignments delete ID --yes   # in scripts']),
  importVerb(RESOURCES.assignments, [
    'appraisal assignments import assignments.csv --match number --property-match parcelNumber',
    'appraisal assignments import assignments.ndjson --match number --dry-run',
  ]),
  collectionVerb(
    {
      name: 'properties',
      description: 'list the properties linked to an assignment',
      path: ASSIGNMENT_PROPERTIES,
      parent: 'assignment',
      view: RESOURCES.props.view,
    },
    [
      'appraisal assignments properties 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
      'appraisal assignments properties ID -o csv --fields id,name,address.city',
    ],
  ),
  propertyLinkVerb(LINK, [
    'appraisal assignments link ASSIGNMENT_ID PROPERTY_ID',
    'appraisal assignments link ASSIGNMENT_ID PROPERTY_ID -o json --fields id,propertyIds',
  ]),
  propertyLinkVerb(UNLINK, [
    'appraisal assignments unlink ASSIGNMENT_ID PROPERTY_ID',
    'appraisal assignments properties ASSIGNMENT_ID   # check what is left',
  ]),
];

export default verbs;
