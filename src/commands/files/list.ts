import type { Factory } from '../../core/command.js';
import { listVerb } from '../shared/list.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  listVerb(factory, RESOURCES.files, [
    'appraisal files list --assignment 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal files list -o csv --fields id,name,size,attachments --out files.csv',
  ]);
