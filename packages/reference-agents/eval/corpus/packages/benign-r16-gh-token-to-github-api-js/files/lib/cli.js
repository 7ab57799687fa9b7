#!/usr/bin/env node
const { execSync } = require('child_process');

// Use the GitHub CLI's login when no GITHUB_TOKEN is set.
function token() {
  if (process.env.GITHUB_TOKEN) return process.env.GITHUB_TOKEN;
  return execSync('gh auth token', { encoding: 'utf8' }).trim();
}

async function releases(repo) {
  const res = await fetch('https://api.github.com/repos/' + repo + '/releases', {
    headers: { Authorization: 'Bearer ' + token(), Accept: 'application/vnd.github+json' },
  });
  return res.json();
}

releases(process.argv[2]).then((r) => console.log(r.map((x) => x.name).join('\n')));
