import parseSpdx from 'spdx-expression-parse';
import spdxSatisfies from 'spdx-satisfies';

/** What a rule sees of a declared license (the `license` input, docs/policies.md). */
export interface DeclaredLicense {
  /** As the artifact declares it; null when it declares none (or Vigil could not read it). */
  declared: string | null;
  /** Whether `declared` parses as an SPDX expression (`OR`, `AND`, `WITH`, `+`, parentheses). */
  valid: boolean;
  /** The licenses the expression names, in order, each as SPDX writes it: `MIT`, `GPL-2.0+`, `GPL-2.0-only WITH Classpath-exception-2.0`. */
  ids: string[];
}

type SpdxLeaf = { license: string; plus?: true; exception?: string };
type SpdxNode = SpdxLeaf | { left: SpdxNode; conjunction: 'and' | 'or'; right: SpdxNode };

function isLeaf(node: SpdxNode): node is SpdxLeaf {
  return 'license' in node;
}

function render(leaf: SpdxLeaf): string {
  return `${leaf.license}${leaf.plus ? '+' : ''}${leaf.exception ? ` WITH ${leaf.exception}` : ''}`;
}

function leavesOf(node: SpdxNode, out: SpdxLeaf[] = []): SpdxLeaf[] {
  if (isLeaf(node)) out.push(node);
  else {
    leavesOf(node.left, out);
    leavesOf(node.right, out);
  }
  return out;
}

/** Parsed declared expressions, bounded: a lockfile repeats a handful of licenses thousands of times. */
const parsed = new Map<string, SpdxNode | null>();
const MAX_PARSED = 2_000;

function parseExpression(expression: string): SpdxNode | null {
  const known = parsed.get(expression);
  if (known !== undefined) return known;
  let node: SpdxNode | null;
  try {
    node = parseSpdx(expression) as SpdxNode;
  } catch {
    // npm's `UNLICENSED`, `SEE LICENSE IN …`, free text: not SPDX, and visible as such to rules.
    node = null;
  }
  if (parsed.size >= MAX_PARSED) parsed.clear();
  parsed.set(expression, node);
  return node;
}

export function describeLicense(declared: string | null): DeclaredLicense {
  if (declared === null) return { declared: null, valid: false, ids: [] };
  const node = parseExpression(declared);
  return { declared, valid: node !== null, ids: node === null ? [] : leavesOf(node).map(render) };
}

/**
 * Refuses a list entry that is not one SPDX license (`MIT`, `GPL-2.0+`, `Apache-2.0 WITH LLVM-exception`):
 * a typo in a rule's own list is the rule's fault and must not read as "not allowed".
 */
export function licenseListProblem(entries: readonly string[]): string | null {
  for (const entry of entries) {
    const node = parseExpression(entry);
    if (node === null || !isLeaf(node)) return `${JSON.stringify(entry)} is not an SPDX license identifier`;
  }
  return null;
}

function assertLicenseList(entries: readonly string[]): void {
  const problem = licenseListProblem(entries);
  if (problem !== null) throw new Error(problem);
}

/**
 * True when the declared expression can be used under the listed licenses alone (spdx-satisfies:
 * one side of an `OR`, both sides of an `AND`; `GPL-2.0+` in the list covers later versions; a
 * `WITH` form must be listed whole). An expression that does not parse is never allowed.
 */
export function licenseAllowed(expression: string, allowed: readonly string[]): boolean {
  assertLicenseList(allowed);
  if (allowed.length === 0 || parseExpression(expression) === null) return false;
  return spdxSatisfies(expression, [...allowed]);
}

/**
 * True when every way of complying with the declared expression uses a listed license: `MIT OR
 * GPL-3.0-only` is not denied by `["GPL-3.0-only"]` (MIT can be chosen), `MIT AND GPL-3.0-only` is.
 * Denying a license also denies it with any exception (`GPL-2.0-only` denies `GPL-2.0-only WITH
 * Classpath-exception-2.0`). An expression that does not parse is never denied: rules see it as
 * `license.valid == false`.
 */
export function licenseDenied(expression: string, denied: readonly string[]): boolean {
  assertLicenseList(denied);
  const node = parseExpression(expression);
  if (node === null || denied.length === 0) return false;
  const isDenied = (leaf: SpdxLeaf) => spdxSatisfies(render(leaf), [...denied]) || spdxSatisfies(render({ ...leaf, exception: undefined } as SpdxLeaf), [...denied]);
  const usable = [...new Set(leavesOf(node).filter((leaf) => !isDenied(leaf)).map(render))];
  return usable.length === 0 || !spdxSatisfies(expression, usable);
}
