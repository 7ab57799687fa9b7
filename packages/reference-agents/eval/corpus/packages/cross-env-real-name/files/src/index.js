const { spawn } = require('cross-spawn');
function crossEnv(args) {
  const env = Object.assign({}, process.env);
  const command = args.find((a) => !a.includes('='));
  for (const a of args.slice(0, args.indexOf(command))) { const [k, v] = a.split('='); env[k] = v; }
  const proc = spawn(command, args.slice(args.indexOf(command) + 1), { stdio: 'inherit', shell: true, env });
  process.on('SIGINT', () => proc.kill('SIGINT'));
  proc.on('exit', (code) => process.exit(code));
}
module.exports = crossEnv;
