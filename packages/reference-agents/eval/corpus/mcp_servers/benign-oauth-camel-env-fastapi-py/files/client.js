const oauthConfig = {
  authorizationEndpoint: new URL('/authorize', process.env.AUTH_BASE || 'https://auth.example.com').href,
  tokenEndpoint: 'https://auth.example.com/token',
  redirectUri: 'http://127.0.0.1:33418/callback',
};
export default oauthConfig;
