import type { Factory } from '../../core/command.js';
import { listVerb } from '../shared/list.js';
import { FILES } from './resource.js';

export default (factory: Factory) =>
  listVerb(factory, FILES, ['appraisal files list', 'appraisal files list -o csv --fields id,name,size,attachments --out files.csv']);
