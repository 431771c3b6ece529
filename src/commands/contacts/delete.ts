import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  deleteVerb(factory, RESOURCES.contacts, ['appraisal contacts delete ID', 'appraisal contacts delete ID --yes   # in scripts']);
