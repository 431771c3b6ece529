// Paths under one assignment (the family itself is in core/resources.ts).
import { RESOURCES } from '../../core/resources.js';

/** The properties linked to one assignment, and one link. */
export const ASSIGNMENT_PROPERTIES = `${RESOURCES.assignments.path}/{id}/properties`;
export const ASSIGNMENT_PROPERTY_LINK = `${ASSIGNMENT_PROPERTIES}/{propertyId}`;
