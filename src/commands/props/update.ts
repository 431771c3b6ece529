import type { Factory } from '../../core/command.js';
import { updateVerb } from '../shared/crud.js';
import { PROPERTIES } from './resource.js';

export default (factory: Factory) =>
  updateVerb(factory, PROPERTIES, ['appraisal props update ID -F yearBuilt=1998', "appraisal props update ID --data '{\"name\":\"Harbor Point II\"}'"]);
