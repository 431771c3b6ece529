import type { Factory } from '../../core/command.js';
import { updateVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  updateVerb(factory, RESOURCES.contacts, [
    "appraisal contacts update ID -f title='Chief Appraiser'",
    'appraisal contacts update ID -f phone=+1-617-555-0142',
  ]);
