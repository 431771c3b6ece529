import type { Factory } from '../../core/command.js';
import { collectionVerb } from '../shared/list.js';
import { DESIGNATIONS_PATH, DESIGNATIONS_VIEW } from './resource.js';

export default (factory: Factory) =>
  collectionVerb(
    factory,
    { name: 'designations', description: 'professional designations (e.g. MAI, SRA)', path: DESIGNATIONS_PATH, view: DESIGNATIONS_VIEW },
    ['appraisal ref designations', 'appraisal ref designations -o csv --out designations.csv'],
  );
