import { Command } from 'commander';
import type { Factory } from '../../core/command.js';
import designationsCommand from './designations.js';
import enumsCommand from './enums.js';

export default function refCommand(factory: Factory): Command {
  return new Command('ref')
    .description('Reference data: enums and designations')
    .addCommand(enumsCommand(factory))
    .addCommand(designationsCommand(factory));
}
