import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { ASSIGNMENTS } from './resource.js';

export default (factory: Factory) => deleteVerb(factory, ASSIGNMENTS, ['appraisal assignments delete ID', 'appraisal assignments delete ID --yes   # in scripts']);
