import { Command } from 'commander';
import type { Factory } from '../../core/command.js';
import createCommand from './create.js';
import deleteCommand from './delete.js';
import getCommand from './get.js';
import listCommand from './list.js';
import updateCommand from './update.js';

export default function contactsCommand(factory: Factory): Command {
  return new Command('contacts')
    .description('Contacts of a client: list --client ID, get, create --client ID, update, delete')
    .addCommand(listCommand(factory))
    .addCommand(getCommand(factory))
    .addCommand(createCommand(factory))
    .addCommand(updateCommand(factory))
    .addCommand(deleteCommand(factory));
}
