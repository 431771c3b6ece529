import { Command } from 'commander';
import type { Factory } from '../../core/command.js';

export default function propsCommand(_factory: Factory): Command {
  return new Command('props').alias('properties').description('Properties: list, get, create, update, delete');
}
