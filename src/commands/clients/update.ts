import type { Factory } from '../../core/command.js';
import { updateVerb } from '../shared/crud.js';
import { CLIENTS } from './resource.js';

export default (factory: Factory) =>
  updateVerb(factory, CLIENTS, ['appraisal clients update ID -f phone=+1-617-555-0100', 'appraisal clients update ID -f address.city=Boston -f address.region=MA']);
