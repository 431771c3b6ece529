import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  deleteVerb(factory, RESOURCES.assignments, ['appraisal assignments delete ID', 'appraisal assignments delete ID --yes   # in scripts']);
