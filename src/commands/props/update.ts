import type { Factory } from '../../core/command.js';
import { updateVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  updateVerb(factory, RESOURCES.props, [
    'appraisal props update ID -F yearBuilt=1998',
    'appraisal props update ID --data \'{"name":"Harbor Point II"}\'',
  ]);
