import type { Factory } from '../../core/command.js';
import { createVerb } from '../shared/crud.js';
import { CONTACTS } from './resource.js';

export default (factory: Factory) =>
  createVerb(factory, CONTACTS, [
    'appraisal contacts create --client CLIENT_ID -f firstName=Dana -f lastName=Reyes -f email=dana.reyes@example.com',
    'appraisal contacts create --client CLIENT_ID --data @contact.json',
  ]);
