import type { Factory } from '../../core/command.js';
import { deleteVerb } from '../shared/crud.js';
import { CONTACTS } from './resource.js';

export default (factory: Factory) => deleteVerb(factory, CONTACTS, ['appraisal contacts delete ID', 'appraisal contacts delete ID --yes   # in scripts']);
