import type { Factory } from '../../core/command.js';
import { collectionVerb } from '../shared/list.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  collectionVerb(
    factory,
    {
      name: 'designations',
      description: 'professional designations (e.g. MAI, SRA)',
      path: RESOURCES.designations.path,
      view: RESOURCES.designations.view,
    },
    ['appraisal ref designations', 'appraisal ref designations -o csv --out designations.csv'],
  );
