import type { ASTNode } from '@marcbachmann/cel-js';
import { INPUT_LIST_CAPS } from './policy-input.js';

/** Estimated steps one rule may take on the worst input (docs/policies.md, "Limits"). */
export const MAX_RULE_COST = 25_000;
/** Estimated steps of all of a policy's rules together. */
export const MAX_POLICY_COST = 250_000;

/** Macros that run their body once per element of the receiver. */
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/** The assumed length of a list the estimate cannot bound otherwise (`split` results, nested lists). */
const UNKNOWN_LIST_LENGTH = 1_000;

const LIST_CAPS: Record<string, number> = INPUT_LIST_CAPS;

/** The most elements a list-valued expression can have on any input. */
function maxLength(node: ASTNode): number {
  switch (node.op) {
    case 'list':
      return node.args.length;
    case 'map':
      return node.args.length;
    case 'id':
      return LIST_CAPS[node.args] ?? UNKNOWN_LIST_LENGTH;
    case '.':
    case '.?':
      return LIST_CAPS[node.args[1]] ?? UNKNOWN_LIST_LENGTH;
    case 'rcall':
      return node.args[0] === 'map' || node.args[0] === 'filter' ? maxLength(node.args[1]) : UNKNOWN_LIST_LENGTH;
    case '+':
      return maxLength(node.args[0]) + maxLength(node.args[1]);
    case '?:':
      return Math.max(maxLength(node.args[1]), maxLength(node.args[2]));
    default:
      return UNKNOWN_LIST_LENGTH;
  }
}

function sum(nodes: readonly ASTNode[]): number {
  let total = 0;
  for (const node of nodes) total += estimateCost(node);
  return total;
}

/**
 * A static upper bound of the steps an expression takes, in the manner of cel-go's cost estimate:
 * one per node, and a comprehension's body once per element its receiver can hold. Input lists
 * are capped (INPUT_LIST_CAPS), literals have their own length; anything else counts as 1,000.
 */
export function estimateCost(node: ASTNode): number {
  switch (node.op) {
    case 'value':
    case 'id':
      return 1;
    case '.':
    case '.?':
      return 1 + estimateCost(node.args[0]);
    case 'call':
      return 1 + sum(node.args[1]);
    case 'rcall': {
      const [name, receiver, args] = node.args;
      if (COMPREHENSIONS.has(name)) return 1 + estimateCost(receiver) + maxLength(receiver) * sum(args.slice(1));
      return 1 + estimateCost(receiver) + sum(args);
    }
    case 'list':
      return 1 + sum(node.args);
    case 'map':
      return 1 + sum(node.args.flat());
    case '!_':
    case '-_':
      return 1 + estimateCost(node.args);
    default:
      return 1 + sum(node.args as readonly ASTNode[]);
  }
}

/** Every call of `name` (function or method) in the expression. */
export function callsOf(node: ASTNode, name: string, out: ASTNode[] = []): ASTNode[] {
  if ((node.op === 'call' || node.op === 'rcall') && node.args[0] === name) out.push(node);
  for (const child of childrenOf(node)) callsOf(child, name, out);
  return out;
}

function childrenOf(node: ASTNode): readonly ASTNode[] {
  switch (node.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [node.args[0]];
    case 'call':
      return node.args[1];
    case 'rcall':
      return [node.args[1], ...node.args[2]];
    case 'map':
      return node.args.flat();
    case '!_':
    case '-_':
      return [node.args];
    default:
      return node.args as readonly ASTNode[];
  }
}
