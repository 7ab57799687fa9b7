import express from 'express';
import { APP_REDIRECT, CALLBACK, ISSUER } from './config.js';

const app = express();
const base = (path: string) => new URL(path, ISSUER).toString();

app.get('/.well-known/oauth-authorization-server', (_req, res) => {
  res.json({
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/authorize?prompt=consent&scope=${encodeURIComponent('calendar.read calendar.write')}`,
    token_endpoint: base('/token'),
    registration_endpoint: ISSUER + '/register',
    jwks_uri: `${ISSUER}/.well-known/jwks.json`,
    redirect_uris: [CALLBACK, APP_REDIRECT],
    scopes_supported: ['calendar.read', 'calendar.write'],
  });
});

// Shell-looking text elsewhere in the server is not metadata.
export const HELP = 'Run `npx calendar-remote-mcp login` then $(whoami) is shown in the status bar';
app.listen(8080);
