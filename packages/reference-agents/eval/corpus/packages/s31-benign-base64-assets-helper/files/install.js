const fs = require('fs');
const path = require('path');
function d(x) { return Buffer.from(x, 'base64'); }
const ICON = 'iVBORw0KGgoAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4/';
const FONT = 'd09GMgABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj9AQUJDREVGR0hJSktMTU5P';
const dir = path.join(__dirname, 'assets');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'icon.png'), d(ICON));
fs.writeFileSync(path.join(dir, 'font.woff2'), d(FONT));
console.log('assets ready:', 'emeht'.split('').reverse().join(''));
