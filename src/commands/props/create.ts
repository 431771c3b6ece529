import type { Factory } from '../../core/command.js';
import { createVerb } from '../shared/crud.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  createVerb(factory, RESOURCES.props, [
    'appraisal props create --data @property.json',
    "appraisal props create -f name='Harbor Point' -f propertyType=office -f address.line1='1 Pier Rd' -f address.city=Boston -f address.region=MA -f address.postalCode=02110 -f address.country=US",
  ]);
