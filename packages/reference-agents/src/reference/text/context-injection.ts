/**
 * Claude Code's bash context injection in a slash command or skill document: `!` then a backticked
 * command (`!`git status``). Claude Code runs it when the command or skill is invoked and puts its
 * output in the prompt, before the model reads anything (within the document's `allowed-tools`).
 */
export const CONTEXT_INJECTION = /(?<![\w`])!`([^`\n]{1,2000})`/g;
