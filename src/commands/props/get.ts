import type { Factory } from '../../core/command.js';
import { getVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  getVerb(factory, RESOURCES.props, [
    'appraisal props get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal props get ID -o json --fields id,name,address.city',
  ]);
