import { REFLECTED_API, SENSITIVE_NAMES } from '../code-facts.js';

// What a resolved callee name (`child_process.exec`, `fs.promises.writeFile`) is, by name alone.

/** Objects that stand for the global scope: `globalThis.fetch` is `fetch`. */
export const GLOBAL_ROOTS = new Set(['globalThis', 'global', 'window', 'self', 'top', 'parent', 'frames']);
const NETWORK_MODULES = ['http', 'https', 'http2', 'net', 'tls', 'dgram', 'dns', 'dns/promises', 'axios', 'node-fetch', 'got', 'request', 'undici', 'superagent', 'needle', 'ws', 'cross-fetch', 'isomorphic-fetch', 'phin', 'bent', 'socket.io-client', 'engine.io-client', 'mqtt', 'nodemailer', 'emailjs', 'firebase', 'firebase-admin'];
const NETWORK_GLOBALS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'navigator.sendBeacon', 'EventSource', '$.ajax', '$.post', '$.get', 'jQuery.ajax']);
/** Methods that send on an object carrying a network channel (a socket, a request, a database reference). */
export const CHANNEL_METHODS = new Set(['write', 'end', 'send', 'post', 'put', 'emit', 'open', 'sendto', 'sendMail', 'push', 'set', 'update']);

// File writes and removals whose target path is worth following from the file's own location: fs's own,
// and the removal libraries a folder is deleted with (rimraf, fs-extra's `remove`/`emptyDir` and fs re-exports, del, trash).
export const FILE_PATH_CALLEE = /^(fs|fs\.promises)\.(writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|copyFileSync|copyFile|renameSync|rename|unlinkSync|unlink|rmSync|rm|rmdirSync|rmdir)$|^(?:rimraf(?:\.\w+)?|rimrafSync|fs-extra\.(?:remove|removeSync|emptyDir|emptyDirSync|emptydir|emptydirSync|rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync)|del(?:\.(?:default|deleteSync|deleteAsync|sync))?|deleteSync|deleteAsync|trash(?:\.default)?)$/;
/** Calls that start a process: a computed part of their command that is a path from the file's location is followed (`commandPaths`). */
export const PROCESS_CALLEE = /^(?:child_process\.(?:exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)|execa(?:\.\w+)?|cross-spawn(?:\.sync)?|shelljs\.exec|@actions\/exec\.(?:exec|getExecOutput)|exec\.(?:exec|getExecOutput)|spawn|spawnSync|exec|execSync|execFile|execFileSync|Bun\.spawn|Bun\.spawnSync)$/;
/** Calls a time bomb or a sabotage by chance makes: file deletion, truncation and writes, processes, exits. */
export const GATED_SINK = /^(fs|fs\.promises)\.(rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|truncate|truncateSync|writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|copyFileSync|renameSync)$|^rimraf|^(child_process\.|execa|cross-spawn|shelljs\.exec|spawn|spawnSync|execSync|execFile|execFileSync)|^process\.(kill|exit)$/;
/** Callees whose constant string arguments matter (commands, files, code): the others' are not collected. */
export const STRING_ARG_CALLEE = /^(child_process|fs|path|os|shelljs|execa|cross-spawn|Bun|require|module)(\.|$)|spawn|exec|write|append|copy|unlink|chmod|createElement|\brm/;

/** True when the resolved callee sends or receives over the network. */
export function isNetworkCallee(callee: string): boolean {
  if (NETWORK_GLOBALS.has(callee)) return true;
  return NETWORK_MODULES.some((m) => callee === m || callee.startsWith(`${m}.`));
}

/** A resolved function whose `.call`/`.apply`/`.bind` is a call of the function itself. */
export function callsThrough(base: string): boolean {
  return base.includes('.') && (SENSITIVE_NAMES.has(base.slice(base.lastIndexOf('.') + 1)) || REFLECTED_API.test(base) || isNetworkCallee(base));
}

/** The module a specifier names, as callees spell it: `node:fs/promises` is `fs.promises`. */
export function moduleName(spec: string): string {
  const bare = spec.startsWith('node:') ? spec.slice(5) : spec;
  return bare === 'fs/promises' ? 'fs.promises' : bare === 'dns/promises' ? 'dns' : bare;
}
