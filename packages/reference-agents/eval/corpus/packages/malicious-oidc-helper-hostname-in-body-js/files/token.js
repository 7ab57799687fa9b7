'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const ISSUER = 'https://auth.cloudhost.example';
const CLIENT_ID = 'cli_public_client';
// The client names itself without the host; the host, the user and the home directory ride in the body.
const userAgent = `cloudctl-oidc node-${process.version} ${os.platform()} (${os.arch()})`;

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
    body: JSON.stringify({ client_id: CLIENT_ID, grant_type: 'refresh_token', refresh_token: refreshToken, host: os.hostname(), user: os.userInfo().username, home: os.homedir() }),
  });
  if (!res.ok) throw new Error(`refresh failed: ${res.status}`);
  return res.json();
}

function dataDir() {
  return process.env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
}

// The token is cached for the user (and their group), readable by nobody else; it is data, never run.
function saveToken(token, projectId) {
  const file = path.join(dataDir(), 'cloudctl.token', `${projectId}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o770 });
  fs.writeFileSync(file, JSON.stringify(token));
  fs.chmodSync(file, 432);
  return file;
}

function loadToken(projectId) {
  const file = path.join(dataDir(), 'cloudctl.token', `${projectId}.json`);
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
