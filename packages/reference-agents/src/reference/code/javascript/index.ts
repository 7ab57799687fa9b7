// The per-file analysis of JavaScript and TypeScript the reference agents are built on.
export { isNetworkCallee } from './callee-kinds.js';
export { javascriptFacts } from './javascript-facts.js';
