import type { Factory } from '../../core/command.js';
import { LINK, propertyLinkVerb } from './property-link.js';

export default (factory: Factory) =>
  propertyLinkVerb(factory, LINK, [
    'appraisal assignments link ASSIGNMENT_ID PROPERTY_ID',
    'appraisal assignments link ASSIGNMENT_ID PROPERTY_ID -o json --fields id,propertyIds',
  ]);
