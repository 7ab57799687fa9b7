import readline from 'node:readline/promises';

export async function promptForChoice(question, choices) {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question(`${question} (${choices.join('/')}) `);
  rl.close();
  return choices.includes(answer.trim()) ? answer.trim() : choices[0];
}
