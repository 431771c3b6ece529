// `appraisal assignments`: the family's standard verbs from its model entry (src/model/families.ts),
// plus its linked properties (`properties`, `link`, `unlink`). The noun's summary is the model's.
import { RESOURCES } from '../../core/resources.js';
import type { Verb } from '../../core/verb.js';
import { familyVerbs } from '../shared/family-verbs.js';
import { collectionVerb } from '../shared/list.js';
import { ASSIGNMENT_PROPERTIES } from './paths.js';
import { LINK, propertyLinkVerb, UNLINK } from './property-link.js';

const verbs: readonly Verb[] = [
  ...familyVerbs(RESOURCES.assignments),
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
    'appraisal assignments get ASSIGNMENT_ID -o json --fields id,propertyIds   # link prints nothing on stdout (204)',
  ]),
  propertyLinkVerb(UNLINK, [
    'appraisal assignments unlink ASSIGNMENT_ID PROPERTY_ID',
    'appraisal assignments properties ASSIGNMENT_ID   # check what is left',
  ]),
];

export default verbs;
