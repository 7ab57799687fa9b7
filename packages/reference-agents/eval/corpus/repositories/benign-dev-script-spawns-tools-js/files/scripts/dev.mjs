import { spawn } from 'node:child_process';

const tasks = [
  ['npx', ['vite', '--port', '5173']],
  ['npx', ['tsc', '--noEmit', '--watch', '--preserveWatchOutput']],
];

function run([cmd, args]) {
  const child = spawn(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) setTimeout(() => run([cmd, args]), 1000);
  });
  return child;
}

const children = tasks.map(run);
process.on('SIGINT', () => { for (const c of children) c.kill('SIGINT'); process.exit(0); });
