#!/usr/bin/env node
import { program } from 'commander';
import { init } from './commands/init.js';
import { run } from './server.js';

program.command('init').description('Add ticketdesk to an MCP client').option('--scope <scope>').option('--workspace-folder <dir>').action((o) => init(o));
program.command('run').description('Start the MCP server').action(() => run());
program.parse();
