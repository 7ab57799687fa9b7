const steps = ['⚙️  generating client', '✔️  client ready', '⚠️  run `plite migrate` next'];
const rows = [
  ['command', 'what it does'],
  ['plite generate', 'writes the typed client'],
  ['plite migrate', 'applies pending migrations'],
];
if (!process.env.CI) {
  for (const s of steps) console.log(s);
  for (const [c, d] of rows) console.log(`  ${c.padEnd(20)}${d}`);
}
