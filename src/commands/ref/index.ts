// `appraisal ref`: reference data the other families point at (enums, designations). The noun's
// summary is the registry's (commands/registry.ts).
import { RESOURCES } from '../../core/resources.js';
import type { NounVerbs } from '../../core/verb.js';
import { collectionVerb } from '../shared/list.js';
import enums from './enums.js';

const verbs: NounVerbs = [
  enums,
  collectionVerb(
    {
      name: 'designations',
      description: 'professional designations (e.g. MAI, SRA)',
      path: RESOURCES.designations.path,
      view: RESOURCES.designations.view,
    },
    ['appraisal ref designations', 'appraisal ref designations -o csv --out designations.csv'],
  ),
];

export default verbs;
