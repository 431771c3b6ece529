import { Command } from 'commander';
import type { Factory } from '../../core/command.js';
import createCommand from './create.js';
import deleteCommand from './delete.js';
import getCommand from './get.js';
import linkCommand from './link.js';
import listCommand from './list.js';
import propertiesCommand from './properties.js';
import unlinkCommand from './unlink.js';
import updateCommand from './update.js';

export default function assignmentsCommand(factory: Factory): Command {
  return new Command('assignments')
    .description('Appraisal assignments and their linked properties')
    .addCommand(listCommand(factory))
    .addCommand(getCommand(factory))
    .addCommand(createCommand(factory))
    .addCommand(updateCommand(factory))
    .addCommand(deleteCommand(factory))
    .addCommand(propertiesCommand(factory))
    .addCommand(linkCommand(factory))
    .addCommand(unlinkCommand(factory));
}
