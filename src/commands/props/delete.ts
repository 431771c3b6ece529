import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  deleteVerb(factory, RESOURCES.props, ['appraisal props delete ID', 'appraisal props delete ID --yes   # in scripts']);
