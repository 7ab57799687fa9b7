// The processes under test: `vigil-server serve` and `vigil-server worker` children of this script,
// each logging to its own file, and nginx in front of the API instances. Every exit the script did
// not ask for is noted (the "no process other than the killed ones exiting" invariant).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../apps/server/dist/bin.js', import.meta.url));

// Every child this script started: killed when the script exits, however it exits, so a crash of the
// script never leaves servers, workers or nginx running.
const children = new Set();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
function adopt(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function createFleet({ dir, env }) {
  const processes = new Map();
  const unexpectedExits = [];

  function start(name, command, extraEnv = {}) {
    const log = createWriteStream(join(dir, `${name}.log`), { flags: 'a' });
    const child = adopt(spawn(process.execPath, [BIN, ...[command].flat()], { env: { ...process.env, ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] }));
    const entry = { name, command, extraEnv, child, expectExit: false, output: '' };
    const keep = (chunk) => {
      log.write(chunk);
      // The start-up lines (the transparency-log check among them) are read back by the script.
      if (entry.output.length < 64 * 1024) entry.output += chunk.toString('utf8');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code, signal) => {
      log.end(`\n[soak] exited: code ${code} signal ${signal}\n`);
      if (!entry.expectExit) unexpectedExits.push({ name, code, signal, at: new Date().toISOString(), tail: entry.output.slice(-2000) });
    });
    processes.set(name, entry);
    return entry;
  }

  return {
    start,
    unexpectedExits,
    get(name) {
      return processes.get(name);
    },
    /** SIGKILL, as a crash or the OOM killer does: no drain, no cleanup. */
    kill(name) {
      const entry = processes.get(name);
      entry.expectExit = true;
      return new Promise((resolve) => {
        entry.child.once('exit', resolve);
        entry.child.kill('SIGKILL');
      });
    },
    restart(name) {
      const old = processes.get(name);
      return start(name, old.command, old.extraEnv);
    },
    /** SIGTERM everything (graceful drain), SIGKILL what is still there after `graceMs`. */
    async stopAll(graceMs = 15_000) {
      await Promise.all(
        [...processes.values()].map((entry) => {
          if (entry.child.exitCode !== null || entry.child.signalCode !== null) return undefined;
          entry.expectExit = true;
          return new Promise((resolve) => {
            const timer = setTimeout(() => entry.child.kill('SIGKILL'), graceMs);
            entry.child.once('exit', (code, signal) => {
              clearTimeout(timer);
              if (code !== 0 && signal !== 'SIGKILL') unexpectedExits.push({ name: entry.name, code, signal, at: new Date().toISOString(), tail: `exit ${code} on SIGTERM` });
              resolve();
            });
            entry.child.kill('SIGTERM');
          });
        }),
      );
    },
  };
}

/** Polls `url` until it answers 200, or throws after `timeoutMs`. */
export async function until200(url, timeoutMs, isAlive = () => true) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`${url}: the process exited before answering`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet: ask again.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

/** Debian's nginx, or a message saying how to get it. */
export function findNginx() {
  for (const candidate of [process.env.SOAK_NGINX, '/usr/sbin/nginx', '/usr/bin/nginx'].filter(Boolean)) {
    const probe = spawnSync(candidate, ['-v'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  return null;
}

/**
 * nginx as the load balancer: round robin over the API instances, the client's address passed in
 * X-Forwarded-For (the instances trust 127.0.0.1, nginx's own address), an instance that refuses or
 * drops 3 connections taken out for 2 s, idempotent requests whose connection failed retried on the
 * next instance (nginx's default: a POST is never sent twice). An instance's own 502 (a dependency
 * down) is passed through and never counts against it: the other instances share the dependency, and
 * counting it once emptied the whole upstream group while the object store was down.
 */
export async function startNginx({ nginx, dir, port, upstreams }) {
  const prefix = join(dir, 'nginx');
  await mkdir(join(prefix, 'logs'), { recursive: true });
  const conf = `
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${join(prefix, 'body')};
  proxy_temp_path ${join(prefix, 'proxy')};
  fastcgi_temp_path ${join(prefix, 'fastcgi')};
  uwsgi_temp_path ${join(prefix, 'uwsgi')};
  scgi_temp_path ${join(prefix, 'scgi')};
  client_max_body_size 32m;
  upstream vigil {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=3 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://vigil;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_connect_timeout 1s;
      proxy_read_timeout 30s;
      proxy_request_buffering on;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 2;
    }
  }
}
`;
  const file = join(prefix, 'nginx.conf');
  await writeFile(file, conf);
  const child = adopt(spawn(nginx, ['-p', prefix, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] }));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let exited = false;
  child.on('exit', () => (exited = true));
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    get exited() {
      return exited;
    },
    get stderr() {
      return stderr;
    },
    stop: () =>
      new Promise((resolve) => {
        if (exited) return resolve();
        child.once('exit', resolve);
        child.kill('SIGQUIT');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
