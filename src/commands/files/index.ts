import { Command } from 'commander';
import type { Factory } from '../../core/command.js';
import attachCommand from './attach.js';
import deleteCommand from './delete.js';
import downloadCommand from './download.js';
import getCommand from './get.js';
import listCommand from './list.js';
import uploadCommand from './upload.js';

export default function filesCommand(factory: Factory): Command {
  return new Command('files')
    .description('Files: upload, list, get, download, attach, delete')
    .addCommand(uploadCommand(factory))
    .addCommand(listCommand(factory))
    .addCommand(getCommand(factory))
    .addCommand(downloadCommand(factory))
    .addCommand(attachCommand(factory))
    .addCommand(deleteCommand(factory));
}
