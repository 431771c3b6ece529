import type { Factory } from '../../core/command.js';
import { createVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  createVerb(factory, RESOURCES.clients, [
    "appraisal clients create -f name='First Harbor Bank' -f clientType=lender -f email=orders@firstharbor.example",
    'appraisal clients create --data @client.json',
  ]);
