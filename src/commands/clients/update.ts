import type { Factory } from '../../core/command.js';
import { updateVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  updateVerb(factory, RESOURCES.clients, [
    'appraisal clients update ID -f phone=+1-617-555-0100',
    'appraisal clients update ID -f address.city=Boston -f address.region=MA',
  ]);
