#!/usr/bin/env node
const { execSync } = require('child_process');
const { createRelease } = require('../lib/github');
const fs = require('fs');

const token = process.env.GITHUB_TOKEN || execSync('gh auth token').toString().trim();
if (!process.env.NPM_TOKEN) console.warn('NPM_TOKEN is not set; npm publish will use your ~/.npmrc login');
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
pkg.scripts = pkg.scripts || {};
execSync(`npm version ${process.argv[2] || 'patch'}`, { stdio: 'inherit' });
execSync('npm publish', { stdio: 'inherit' });
createRelease(token, pkg.repository, `v${JSON.parse(fs.readFileSync('package.json', 'utf8')).version}`).catch((e) => console.error(e.message));
