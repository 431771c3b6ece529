import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  deleteVerb(factory, RESOURCES.files, ['appraisal files delete ID', 'appraisal files delete ID --yes   # in scripts']);
