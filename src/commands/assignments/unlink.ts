import type { Factory } from '../../core/command.js';
import { propertyLinkVerb, UNLINK } from './property-link.js';

export default (factory: Factory) =>
  propertyLinkVerb(factory, UNLINK, [
    'appraisal assignments unlink ASSIGNMENT_ID PROPERTY_ID',
    'appraisal assignments properties ASSIGNMENT_ID   # check what is left',
  ]);
