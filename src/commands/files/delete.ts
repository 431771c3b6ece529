import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { FILES } from './resource.js';

export default (factory: Factory) => deleteVerb(factory, FILES, ['appraisal files delete ID', 'appraisal files delete ID --yes   # in scripts']);
