import type { Factory } from '../../core/command.js';
import { collectionVerb } from '../shared/list.js';
import { ASSIGNMENT_PROPERTIES } from './paths.js';
import { RESOURCES } from '../../core/resources.js';

export default (factory: Factory) =>
  collectionVerb(
    factory,
    {
      name: 'properties',
      description: 'list the properties linked to an assignment',
      path: ASSIGNMENT_PROPERTIES,
      parent: 'assignment',
      view: RESOURCES.props.view,
    },
    [
      'appraisal assignments properties 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
      'appraisal assignments properties ID -o csv --fields id,name,address.city',
    ],
  );
