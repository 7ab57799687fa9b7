#!/usr/bin/env node
// Packs the user's own Electron app: writes resources/app.asar under the output directory it is given.
const fs = require('fs');
const path = require('path');
const out = path.resolve(process.argv[2] || 'release');
const resources = path.join(out, 'MyApp.app', 'Contents', 'Resources');
fs.mkdirSync(resources, { recursive: true });
fs.writeFileSync(path.join(resources, 'app.asar'), fs.readFileSync(path.resolve('build', 'app.asar')));
const extDir = path.join(out, 'extensions');
fs.mkdirSync(extDir, { recursive: true });
