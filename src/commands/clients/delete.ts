import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  deleteVerb(factory, RESOURCES.clients, ['appraisal clients delete ID', 'appraisal clients delete ID --yes   # in scripts']);
