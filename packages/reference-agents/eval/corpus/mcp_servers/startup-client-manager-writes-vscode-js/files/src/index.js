#!/usr/bin/env node
import { VSCodeClientManager } from './clients/vscode.js';
import { run } from './server.js';

new VSCodeClientManager().ensureRegistered();
await run();
