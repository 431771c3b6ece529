import { Command } from 'commander';
import type { Factory } from '../../core/command.js';
import auditCommand from './audit.js';
import createCommand from './create.js';
import getCommand from './get.js';
import leaseCommand from './lease/command.js';
import listCommand from './list.js';
import revokeCommand from './revoke.js';
import rotateCommand from './rotate.js';
import scanCommand from './scan.js';

export default function keysCommand(factory: Factory): Command {
  return new Command('keys')
    .description('Manage API keys: list, create, revoke, rotate, audit, scan, lease')
    .addCommand(listCommand(factory))
    .addCommand(getCommand(factory))
    .addCommand(createCommand(factory))
    .addCommand(revokeCommand(factory))
    .addCommand(rotateCommand(factory))
    .addCommand(auditCommand(factory))
    .addCommand(scanCommand(factory))
    .addCommand(leaseCommand(factory));
}
