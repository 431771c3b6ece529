import type { Factory } from '../../core/command.js';
import { listVerb } from '../shared/list.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  listVerb(factory, RESOURCES.clients, [
    'appraisal clients list --type lender --q harbor',
    'appraisal clients list -o csv --fields id,name,clientType,email --out clients.csv',
  ]);
