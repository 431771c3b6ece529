import type { Factory } from '../../core/command.js';
import { listVerb } from '../shared/list.js';
import { CLIENTS } from './resource.js';

export default (factory: Factory) =>
  listVerb(factory, CLIENTS, ['appraisal clients list --type lender --q harbor', 'appraisal clients list -o csv --fields id,name,clientType,email --out clients.csv']);
