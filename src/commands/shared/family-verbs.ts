// A family's standard verbs, made from its model entry (src/model/families.ts): list, get, create,
// update and delete for the operations it publishes, and import where records are created from JSON
// and changed in place. A noun whose family has only these has no file of its own (the registry
// makes it); one with more verbs (assignments, files) adds its own to these in its index.ts.
import { standardVerbsOf, type ResourceFamily, type StandardVerb } from '../../core/resources.js';
import type { Verb } from '../../core/verb.js';
import { importVerb } from '../import/import-verb.js';
import { createVerb, deleteVerb, getVerb, updateVerb } from './crud.js';
import { listVerb } from './list.js';

const BUILDERS: Readonly<Record<StandardVerb, (family: ResourceFamily, examples: readonly string[]) => Verb>> = {
  list: listVerb,
  get: getVerb,
  create: createVerb,
  update: updateVerb,
  delete: deleteVerb,
};

/** The examples of a verb: the model's, else a plain one made from the family's name (run by the example tests). */
function examplesOf(family: ResourceFamily, verb: StandardVerb | 'import'): readonly string[] {
  const given = family.examples?.[verb];
  if (given) return given;
  const noun = `appraisal ${family.command}`;
  switch (verb) {
    case 'list':
      return [`${noun} list`, `${noun} list -o csv --out ${family.view.label}.csv`];
    case 'create':
      return [`${noun} create --data @${family.singular}.json`];
    case 'update':
      return [`${noun} update ID --data @${family.singular}.json`];
    case 'import':
      return [`${noun} import ${family.view.label}.csv --match id --dry-run`];
    default:
      return [`${noun} ${verb} ID`];
  }
}

/** One standard verb of the family (a noun with verbs of its own places them among these). */
export function familyVerb(family: ResourceFamily, name: StandardVerb | 'import'): Verb {
  return name === 'import' ? importVerb(family, examplesOf(family, 'import')) : BUILDERS[name](family, examplesOf(family, name));
}

/** The family's standard verbs (the model's standardVerbsOf), in help order. */
export function familyVerbs(family: ResourceFamily): Verb[] {
  return standardVerbsOf(family).map((name) => familyVerb(family, name));
}
