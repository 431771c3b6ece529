import { Command } from 'commander';
import type { Factory } from '../../core/command.js';
import listCommand from './list.js';
import removeCommand from './remove.js';
import useCommand from './use.js';

export default function profilesCommand(factory: Factory): Command {
  return new Command('profiles')
    .description('List, select and remove profiles')
    .addCommand(listCommand(factory))
    .addCommand(useCommand(factory))
    .addCommand(removeCommand(factory));
}
