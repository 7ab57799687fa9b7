import type { ASTNode } from '@marcbachmann/cel-js';
import { POLICY_INPUT_TYPES } from './cel-environment.js';
import { INPUT_LIST_CAPS, INPUT_STRING_CAP } from '../policy-input.js';

/** Estimated steps one rule may take on the worst input (docs/policies.md, "Limits"). */
export const MAX_RULE_COST = 25_000;
/** Estimated steps of all of a policy's rules together. */
export const MAX_POLICY_COST = 250_000;

/** Macros that run their body once per element of the receiver. */
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

// What one step stands for: about one node of the tree evaluated (~0.1 µs here). The ratios below
// were measured on the evaluator (docs/policies.md, "Cost"), rounded towards the expensive side.
/** Elements of a list built or copied per extra step. */
const ELEMENTS_PER_STEP = 2;
/** Characters of a string built or walked one by one (`+`, `join`, `lowerAscii`, `size`, `split`) per extra step. */
const BUILT_CHARACTERS_PER_STEP = 20;
/** Characters compared or searched (`==`, `<`, `contains`, `startsWith`, `indexOf`) per extra step. */
const COMPARED_CHARACTERS_PER_STEP = 1_000;
/**
 * A timestamp method given a time zone (`getHours("America/New_York")`) formats the date through
 * Intl: about 0.4 ms a call, 4,000 steps; counted as 5,000.
 */
const TIME_ZONE_CALL_STEPS = 5_000;

/**
 * `timestamp(s)` and `duration(s)` match their string with regular expressions that backtrack in
 * cubic time on a crafted one (1,900 characters: about 4 s): counted as (length / 5)³.
 */
function parsedTimeSteps(length: number): number {
  return Math.ceil((length / 5) ** 3);
}

/**
 * The largest value an expression can produce: for a string or bytes, its length; for a list or a
 * map, its number of elements, with `elem` the largest element (a map's key) and `value` a map's
 * largest value. An absent `elem` or `value` is bounded by `len` itself (every value a split or a
 * JSON document yields is no longer than what it came from). Scalars are `{ len: 1 }`.
 */
interface Shape {
  len: number;
  /** Known to be a string or bytes (a list element's type is not always on the tree). */
  text?: true;
  elem?: Shape;
  value?: Shape;
}

interface Estimate {
  cost: number;
  shape: Shape;
}

const SCALAR: Shape = { len: 1 };
const INPUT_STRING: Shape = { len: INPUT_STRING_CAP, text: true };
/** The longest text `string(x)` makes of a number or a bool. */
const NUMBER_TEXT: Shape = { len: 32, text: true };

function text(len: number): Shape {
  return { len, text: true };
}

const LIST_CAPS: Record<string, number> = INPUT_LIST_CAPS;

function elemOf(shape: Shape): Shape {
  return shape.elem ?? { len: shape.len };
}

function valueOf(shape: Shape): Shape {
  return shape.value ?? { len: shape.len };
}

function largest(a: Shape, b: Shape): Shape {
  const out: Shape = { len: Math.max(a.len, b.len) };
  if (a.text && b.text) out.text = true;
  if (a.elem !== undefined || b.elem !== undefined) out.elem = largest(elemOf(a), elemOf(b));
  if (a.value !== undefined || b.value !== undefined) out.value = largest(valueOf(a), valueOf(b));
  return out;
}

function typeOf(node: ASTNode): string {
  return (node as { checkedType?: { name?: string } }).checkedType?.name ?? 'dyn';
}

function isText(type: string): boolean {
  return type === 'string' || type === 'bytes';
}

function isCollection(type: string): boolean {
  return type.startsWith('list<') || type.startsWith('map<') || type === 'list' || type === 'map';
}

/** The shape of a value of a declared type: input strings are cut at INPUT_STRING_CAP, input lists at their caps. */
function shapeOfType(type: string, field?: string): Shape {
  if (isText(type)) return INPUT_STRING;
  const list = /^list<(.*)>$/.exec(type);
  if (list) return { len: (field === undefined ? undefined : LIST_CAPS[field]) ?? INPUT_STRING_CAP, elem: shapeOfType(list[1]!) };
  if (type === 'dyn' || isCollection(type)) return { len: INPUT_STRING_CAP };
  return SCALAR;
}

/**
 * The steps of walking a whole value once: per element, and per character at `charactersPerStep`
 * (comparing, or building). A value of unknown contents (dyn) counts as a list of as many strings,
 * each as long as it.
 */
function traversal(shape: Shape, type: string, charactersPerStep: number): number {
  if (isText(type) || shape.text) return Math.ceil(shape.len / charactersPerStep);
  if (!isCollection(type) && type !== 'dyn') return 0;
  if (shape.elem === undefined && shape.value === undefined) {
    return Math.ceil(shape.len / ELEMENTS_PER_STEP) + shape.len * (1 + Math.ceil(shape.len / charactersPerStep));
  }
  const inner =
    traversal(elemOf(shape), 'dyn', charactersPerStep) + (shape.value === undefined ? 0 : traversal(shape.value, 'dyn', charactersPerStep));
  return Math.ceil(shape.len / ELEMENTS_PER_STEP) + shape.len * inner;
}

/** Walking or building `length` characters one by one. */
function textSteps(length: number): number {
  return Math.ceil(length / BUILT_CHARACTERS_PER_STEP);
}

/** Comparing or searching `length` characters. */
function compareSteps(length: number): number {
  return Math.ceil(length / COMPARED_CHARACTERS_PER_STEP);
}

/** Variables bound by `cel.bind` and comprehensions, innermost last. */
type Scope = ReadonlyMap<string, Shape>;

function bindIn(scope: Scope, name: string, shape: Shape): Scope {
  const next = new Map(scope);
  next.set(name, shape);
  return next;
}

function sumOf(estimates: readonly Estimate[]): number {
  let total = 0;
  for (const e of estimates) total += e.cost;
  return total;
}

function literalLength(node: ASTNode): number | undefined {
  if (node.op !== 'value') return undefined;
  const value = node.args;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  return undefined;
}

function estimateMethod(node: ASTNode & { op: 'rcall' }, scope: Scope): Estimate {
  const [name, receiverNode, argNodes] = node.args;
  if (name === 'bind' && receiverNode.op === 'id' && receiverNode.args === 'cel') {
    const [variable, init, body] = argNodes;
    const bound = estimate(init!, scope);
    const inner = estimate(body!, bindIn(scope, variable!.op === 'id' ? variable!.args : '', bound.shape));
    return { cost: 1 + bound.cost + inner.cost, shape: inner.shape };
  }
  const receiver = estimate(receiverNode, scope);
  const receiverType = typeOf(receiverNode);
  if (COMPREHENSIONS.has(name)) {
    const variable = argNodes[0];
    // A list's elements, or a map's keys (`elem` of a map's shape).
    const iterated = elemOf(receiver.shape);
    const inner = bindIn(scope, variable?.op === 'id' ? variable.args : '', iterated);
    const bodies = argNodes.slice(1).map((arg) => estimate(arg, inner));
    const perElement = sumOf(bodies) + 1;
    const length = receiver.shape.len;
    const cost = 1 + receiver.cost + length * perElement;
    // map and filter also build a list as long as the receiver.
    const built = cost + Math.ceil(length / ELEMENTS_PER_STEP);
    if (name === 'map') return { cost: built, shape: { len: length, elem: bodies[bodies.length - 1]!.shape } };
    if (name === 'filter') return { cost: built, shape: { len: length, elem: iterated } };
    return { cost, shape: SCALAR };
  }
  const args = argNodes.map((arg) => estimate(arg, scope));
  const base = 1 + receiver.cost + sumOf(args);
  const len = receiver.shape.len;
  if (receiverType === 'google.protobuf.Timestamp' && args.length > 0) return { cost: base + TIME_ZONE_CALL_STEPS, shape: SCALAR };
  switch (name) {
    case 'size':
      // A string's size counts its code points: one walk of it.
      return { cost: base + (isText(receiverType) ? textSteps(len) : 0), shape: SCALAR };
    case 'startsWith':
    case 'endsWith':
    case 'contains':
    case 'indexOf':
    case 'lastIndexOf':
      return { cost: base + compareSteps(len + (args[0]?.shape.len ?? 0)), shape: SCALAR };
    case 'lowerAscii':
    case 'upperAscii':
    case 'trim':
    case 'substring':
    case 'string':
      return { cost: base + textSteps(len), shape: text(len) };
    case 'split': {
      const limit = argNodes[1] === undefined ? undefined : literalLength(argNodes[1]);
      const parts = Math.min(len + 1, limit !== undefined && limit > 0 ? limit : len + 1);
      return { cost: base + textSteps(len) + Math.ceil(parts / ELEMENTS_PER_STEP), shape: { len: parts, elem: text(len) } };
    }
    case 'join': {
      const separator = args[0]?.shape.len ?? 0;
      const joined = len * elemOf(receiver.shape).len + Math.max(0, len - 1) * separator;
      return { cost: base + Math.ceil(len / ELEMENTS_PER_STEP) + textSteps(joined), shape: text(joined) };
    }
    case 'hex':
      return { cost: base + textSteps(2 * len), shape: text(2 * len) };
    case 'base64':
      return { cost: base + textSteps(2 * len), shape: text(Math.ceil((4 * len) / 3) + 4) };
    case 'json':
      return { cost: base + textSteps(len) + Math.ceil(len / ELEMENTS_PER_STEP), shape: { len } };
    case 'at':
      return { cost: base, shape: SCALAR };
    default:
      // A method the table above does not know: it may walk everything it is given and return as much.
      return unknownCall(base, [receiver, ...args], [receiverType, ...argNodes.map(typeOf)], typeOf(node));
  }
}

/** Conservative: walks every argument once, and returns as much as all its arguments hold. */
function unknownCall(base: number, args: readonly Estimate[], types: readonly string[], resultType: string): Estimate {
  let cost = base;
  let len = 0;
  args.forEach((arg, i) => {
    cost += traversal(arg.shape, types[i] ?? 'dyn', BUILT_CHARACTERS_PER_STEP);
    len += arg.shape.len;
  });
  if (isText(resultType)) return { cost, shape: text(Math.max(len, 1)) };
  return { cost, shape: isCollection(resultType) || resultType === 'dyn' ? { len: Math.max(len, 1) } : SCALAR };
}

function estimateFunction(node: ASTNode & { op: 'call' }, scope: Scope): Estimate {
  const [name, argNodes] = node.args;
  const args = argNodes.map((arg) => estimate(arg, scope));
  const base = 1 + sumOf(args);
  const first = args[0]?.shape ?? SCALAR;
  const firstType = argNodes[0] === undefined ? 'dyn' : typeOf(argNodes[0]);
  switch (name) {
    case 'size':
      return { cost: base + (isText(firstType) ? textSteps(first.len) : 0), shape: SCALAR };
    case 'has':
      return { cost: base, shape: SCALAR };
    case 'int':
    case 'uint':
    case 'double':
    case 'bool':
      return { cost: base + (isText(firstType) ? textSteps(first.len) : 0), shape: SCALAR };
    case 'string':
      return isText(firstType) ? { cost: base + textSteps(first.len), shape: text(first.len) } : { cost: base, shape: NUMBER_TEXT };
    case 'timestamp':
    case 'duration':
      return { cost: base + (isText(firstType) ? textSteps(first.len) + parsedTimeSteps(first.len) : 0), shape: SCALAR };
    case 'bytes':
      // A string's UTF-8 bytes: up to 4 per character... counted in UTF-16 units, at most 3.
      return { cost: base + textSteps(3 * first.len), shape: text(3 * first.len) };
    case 'license_allowed':
    case 'license_denied':
      return { cost: base + textSteps(first.len) + traversal(args[1]?.shape ?? SCALAR, argNodes[1] === undefined ? 'dyn' : typeOf(argNodes[1]), BUILT_CHARACTERS_PER_STEP), shape: SCALAR };
    default:
      return unknownCall(base, args, argNodes.map(typeOf), typeOf(node));
  }
}

function estimateBinary(node: ASTNode, left: Estimate, right: Estimate): Estimate {
  const base = 1 + left.cost + right.cost;
  const [leftNode, rightNode] = node.args as [ASTNode, ASTNode];
  const leftType = typeOf(leftNode);
  const rightType = typeOf(rightNode);
  switch (node.op) {
    case '+': {
      const type = typeOf(node);
      if (isText(type)) {
        const len = left.shape.len + right.shape.len;
        return { cost: base + textSteps(len), shape: text(len) };
      }
      if (isCollection(type) || type === 'dyn') {
        const len = left.shape.len + right.shape.len;
        const shape: Shape = { len, elem: largest(elemOf(left.shape), elemOf(right.shape)) };
        // Unknown (dyn) could be strings as well as lists: charge the larger of the two.
        return { cost: base + Math.max(Math.ceil(len / ELEMENTS_PER_STEP), textSteps(len)), shape };
      }
      return { cost: base, shape: SCALAR };
    }
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return {
        cost: base + Math.min(traversal(left.shape, leftType, COMPARED_CHARACTERS_PER_STEP), traversal(right.shape, rightType, COMPARED_CHARACTERS_PER_STEP)),
        shape: SCALAR,
      };
    case 'in': {
      if (rightType.startsWith('map')) return { cost: base + traversal(left.shape, leftType, BUILT_CHARACTERS_PER_STEP), shape: SCALAR };
      const compare = 1 + Math.min(traversal(left.shape, leftType, COMPARED_CHARACTERS_PER_STEP), traversal(elemOf(right.shape), 'dyn', COMPARED_CHARACTERS_PER_STEP));
      return { cost: base + Math.ceil(right.shape.len / ELEMENTS_PER_STEP) + right.shape.len * compare, shape: SCALAR };
    }
    case '[]':
    case '[?]':
      if (leftType.startsWith('map')) return { cost: base + traversal(right.shape, rightType, BUILT_CHARACTERS_PER_STEP), shape: valueOf(left.shape) };
      return { cost: base, shape: elemOf(left.shape) };
    default:
      return { cost: base, shape: SCALAR };
  }
}

function estimate(node: ASTNode, scope: Scope): Estimate {
  switch (node.op) {
    case 'value': {
      const value = node.args;
      if (typeof value === 'string') return { cost: 1, shape: text(value.length) };
      if (value instanceof Uint8Array) return { cost: 1, shape: text(value.length) };
      return { cost: 1, shape: SCALAR };
    }
    case 'id': {
      const bound = scope.get(node.args);
      return { cost: 1, shape: bound ?? shapeOfType(typeOf(node), node.args) };
    }
    case '.':
    case '.?': {
      const target = estimate(node.args[0], scope);
      // A field of the declared input has its declared bound; a key of a map (`m.key`) is as large as the map's values.
      const ofInput = typeOf(node.args[0]) in POLICY_INPUT_TYPES;
      return { cost: 1 + target.cost, shape: ofInput ? shapeOfType(typeOf(node), node.args[1]) : valueOf(target.shape) };
    }
    case 'call':
      return estimateFunction(node, scope);
    case 'rcall':
      return estimateMethod(node, scope);
    case 'list': {
      const items = node.args.map((item) => estimate(item, scope));
      const elem = items.reduce<Shape | undefined>((acc, item) => (acc === undefined ? item.shape : largest(acc, item.shape)), undefined);
      return { cost: 1 + sumOf(items) + Math.ceil(items.length / ELEMENTS_PER_STEP), shape: elem === undefined ? { len: 0 } : { len: items.length, elem } };
    }
    case 'map': {
      const keys = node.args.map(([key]) => estimate(key, scope));
      const values = node.args.map(([, value]) => estimate(value, scope));
      const widest = (list: Estimate[]) => list.reduce<Shape | undefined>((acc, item) => (acc === undefined ? item.shape : largest(acc, item.shape)), undefined) ?? { len: 0 };
      return { cost: 1 + sumOf(keys) + sumOf(values), shape: { len: node.args.length, elem: widest(keys), value: widest(values) } };
    }
    case '!_':
    case '-_':
      return { cost: 1 + estimate(node.args, scope).cost, shape: SCALAR };
    case '?:': {
      const [condition, then, otherwise] = node.args.map((arg) => estimate(arg, scope)) as [Estimate, Estimate, Estimate];
      return { cost: 1 + condition.cost + Math.max(then.cost, otherwise.cost), shape: largest(then.shape, otherwise.shape) };
    }
    case '&&':
    case '||': {
      const [left, right] = node.args.map((arg) => estimate(arg, scope)) as [Estimate, Estimate];
      return { cost: 1 + left.cost + right.cost, shape: SCALAR };
    }
    default: {
      const [left, right] = (node.args as [ASTNode, ASTNode]).map((arg) => estimate(arg, scope)) as [Estimate, Estimate];
      return estimateBinary(node, left, right);
    }
  }
}

/**
 * A static upper bound of the steps an expression takes on the worst input, in the manner of
 * cel-go's cost estimate, over a type-checked syntax tree: one step per node; a comprehension's
 * body once per element its receiver can hold; and, because a value's size can grow with every
 * operation (`cel.bind(l1, l0 + l0, …)` doubles a list each time it is nested), more steps for the
 * list elements and characters an operation builds, copies, walks or compares (the ratios above). The
 * size of every value is tracked through `+`, `split`, `join`, `map`, `filter`, `cel.bind` and the
 * comprehension variables; input strings are at most INPUT_STRING_CAP characters and input lists
 * are capped (INPUT_LIST_CAPS). Returns Infinity rather than a number that lost its precision.
 */
export function estimateCost(node: ASTNode): number {
  const cost = estimate(node, new Map()).cost;
  return Number.isFinite(cost) && cost < Number.MAX_SAFE_INTEGER ? cost : Infinity;
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
