// `appraisal files`: the family's list/get/delete from the resource table, plus the transfers
// (upload, download, attach). The noun's summary is the registry's (commands/registry.ts).
import { RESOURCES } from '../../core/resources.js';
import type { NounVerbs } from '../../core/verb.js';
import { deleteVerb, getVerb } from '../shared/crud.js';
import { listVerb } from '../shared/list.js';
import attach from './attach.js';
import download from './download.js';
import upload from './upload.js';

const verbs: NounVerbs = [
  upload,
  listVerb(RESOURCES.files, [
    'appraisal files list --assignment 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal files list -o csv --fields id,name,size,attachments --out files.csv',
  ]),
  getVerb(RESOURCES.files, [
    'appraisal files get 3f2b8c1e-5d4a-4c3b-9a1f-0e6d7c8b9a10',
    'appraisal files get ID -o json --fields name,size,sha256,attachments',
  ]),
  download,
  attach,
  deleteVerb(RESOURCES.files, ['appraisal files delete ID', 'appraisal files delete ID --yes   # in scripts']),
];

export default verbs;
