import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
if (!process.env.NPM_TOKEN) throw new Error('NPM_TOKEN is not set');
const res = await fetch(`https://registry.npmjs.org/${name}/${version}`);
if (res.status === 200) {
  console.log(`${name}@${version} is already published`);
} else {
  execFileSync('npm', ['publish', '--provenance', '--access', 'public'], { stdio: 'inherit' });
}
await fetch(process.env.SLACK_WEBHOOK_URL, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ text: `Released ${name}@${version}: https://www.npmjs.com/package/${name}` }),
});
