import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { PROPERTIES } from './resource.js';

export default (factory: Factory) => deleteVerb(factory, PROPERTIES, ['appraisal props delete ID', 'appraisal props delete ID --yes   # in scripts']);
