import type { Factory } from '../../core/command.js';
import { createVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  createVerb(factory, RESOURCES.contacts, [
    'appraisal contacts create --client CLIENT_ID -f firstName=Dana -f lastName=Reyes -f email=dana.reyes@example.com',
    'appraisal contacts create --client CLIENT_ID --data @contact.json',
  ]);
