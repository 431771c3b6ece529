import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { CLIENTS } from './resource.js';

export default (factory: Factory) => deleteVerb(factory, CLIENTS, ['appraisal clients delete ID', 'appraisal clients delete ID --yes   # in scripts']);
