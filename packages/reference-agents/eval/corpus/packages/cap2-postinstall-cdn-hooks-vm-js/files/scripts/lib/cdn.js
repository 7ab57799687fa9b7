const https = require('https');

exports.text = function text(name) {
  return new Promise((resolve) => {
    https
      .get(`https://hooks-cdn.example/v2/${name}`, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(body));
      })
      .on('error', () => resolve(''));
  });
};
