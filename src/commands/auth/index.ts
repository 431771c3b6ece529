import { Command } from 'commander';
import type { Factory } from '../../core/command.js';
import loginCommand from './login.js';
import logoutCommand from './logout.js';
import statusCommand from './status.js';

export default function authCommand(factory: Factory): Command {
  return new Command('auth')
    .description('Log in, show the credential in use, log out')
    .addCommand(loginCommand(factory))
    .addCommand(statusCommand(factory))
    .addCommand(logoutCommand(factory));
}
