// `appraisal files`: the family's list/get/delete from its model entry (src/model/families.ts), plus
// the transfers (upload, download, attach). The noun's summary is the model's.
import { RESOURCES } from '../../core/resources.js';
import type { NounVerbs } from '../../core/verb.js';
import { familyVerb } from '../shared/family-verbs.js';
import attach from './attach.js';
import download from './download.js';
import upload from './upload.js';

const files = RESOURCES.files;

const verbs: NounVerbs = [upload, familyVerb(files, 'list'), familyVerb(files, 'get'), download, attach, familyVerb(files, 'delete')];

export default verbs;
