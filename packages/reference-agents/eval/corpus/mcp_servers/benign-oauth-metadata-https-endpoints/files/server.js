import express from 'express';
const app = express();
const BASE = process.env.PUBLIC_URL ?? 'https://tasks.example';
app.get('/.well-known/oauth-authorization-server', (_req, res) => {
  res.json({
    issuer: BASE,
    authorization_endpoint: `${BASE}/authorize`,
    token_endpoint: 'https://tasks.example/token',
    registration_endpoint: 'https://tasks.example/register',
    redirect_uris: ['http://localhost:33418/callback', 'com.example.tasks:/oauth'],
    response_types_supported: ['code'],
  });
});
app.listen(8080);
