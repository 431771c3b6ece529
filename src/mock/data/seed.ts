// The seeded families for a (records, seed) pair. Creating them is O(1): records are produced on
// demand (see seeded-family.ts).
import { SeededAssignments } from './seeded-assignments.js';
import { SeededClients, SeededContacts } from './seeded-clients.js';
import { SeededDesignations } from './seeded-designations.js';
import { SeededFiles } from './seeded-files.js';
import { SeededProperties } from './seeded-properties.js';

export interface SeedOptions {
  /** Records per family (contacts count with clients, but get as many as clients). */
  records: number;
  seed: number;
}

export interface SeededData {
  properties: SeededProperties;
  clients: SeededClients;
  contacts: SeededContacts;
  assignments: SeededAssignments;
  files: SeededFiles;
  designations: SeededDesignations;
}

export function seedFamilies(options: SeedOptions): SeededData {
  const properties = new SeededProperties(options.seed, options.records);
  const clients = new SeededClients(options.seed, options.records);
  const contacts = new SeededContacts(options.seed, options.records, clients);
  const assignments = new SeededAssignments(options.seed, options.records, clients, properties);
  const files = new SeededFiles(options.seed, options.records, properties, assignments);
  return { properties, clients, contacts, assignments, files, designations: new SeededDesignations(options.seed) };
}
