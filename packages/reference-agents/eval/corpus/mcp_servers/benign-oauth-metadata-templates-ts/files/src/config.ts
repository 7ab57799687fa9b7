export const ISSUER = process.env.ISSUER_URL ?? 'https://calendar.example';
export const CALLBACK = 'http://localhost:33418/callback';
export const APP_REDIRECT = 'com.calendar.example:/oauth2redirect';
