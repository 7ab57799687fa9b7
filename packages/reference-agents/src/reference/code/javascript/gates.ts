import { clockOrChanceGate } from '../code-facts.js';
import type { Binding } from './bindings.js';
import { node, nodes, type N } from './estree.js';

/** A clock read or a random draw anywhere in the text: the only files where a call can be gated on one. */
const CLOCK_OR_CHANCE_HINT = /\bDate\b|\bget(?:UTC)?(?:Date|Day|Month|FullYear|Hours)\(|\brandom(?:Int)?\(/;

/**
 * Calls that run only on a date or by chance (a time bomb, sabotage now and then): the conditions
 * around a call, and whether one reads the calendar against a constant or draws a random number.
 */
export class Gates {
  /** Gates need a clock or a random draw somewhere in the file: most files have neither, and skip the work. */
  readonly possible: boolean;
  /** Per block, its `if (…) return|throw` statements: found once, not once per call (bundles have huge blocks). */
  private readonly exitIfs = new Map<number, N[]>();
  private initTexts: Map<string, string> | undefined;

  constructor(
    private readonly text: string,
    /** The file's bindings, complete by the time `gateOf` is first called. */
    private readonly bindings: readonly Binding[],
  ) {
    this.possible = CLOCK_OR_CHANCE_HINT.test(text);
  }

  /**
   * The conditions a call runs under: the tests of enclosing `if`/`?:`/`&&` (the branch the call is
   * in, not the test itself) and of earlier `if (…) return|throw` statements of enclosing blocks.
   */
  guardTests(parents: N[]): N[] {
    const out: N[] = [];
    for (let i = parents.length - 2; i >= 0 && out.length < 8; i--) {
      const p = parents[i]!;
      const child = parents[i + 1]!;
      if ((p.type === 'IfStatement' || p.type === 'ConditionalExpression') && child !== p.test) out.push(node(p.test)!);
      else if (p.type === 'LogicalExpression' && p.operator === '&&' && child === p.right) out.push(node(p.left)!);
      else if (p.type === 'BlockStatement' || p.type === 'Program') {
        let exits = this.exitIfs.get(p.start);
        if (exits === undefined) {
          exits = nodes(p.body).filter((st) => {
            const then = node(st.consequent);
            return st.type === 'IfStatement' && then !== undefined && (then.type === 'ReturnStatement' || then.type === 'ThrowStatement' || (then.type === 'BlockStatement' && nodes(then.body).some((b) => b.type === 'ReturnStatement' || b.type === 'ThrowStatement')));
          });
          this.exitIfs.set(p.start, exits);
        }
        for (const st of exits) {
          if (st.start >= child.start) break;
          out.push(node(st.test)!);
        }
      }
    }
    return out;
  }

  /** Whether one of a call's conditions reads the calendar against a constant or draws a random number. */
  gateOf(guards: N[]): 'date' | 'chance' | undefined {
    for (const t of guards) {
      let code = this.text.slice(t.start, t.end);
      if (code.length > 400) continue;
      // One level of names: `const due = Date.now() > 1767225600000; if (due) …` (first binding of each
      // name, found once per file: looking each name up in every binding made big files quadratic).
      const initTexts = this.initTextsOnce();
      for (const m of code.match(/[A-Za-z_$][\w$]*/g) ?? []) {
        const v = initTexts.get(m);
        if (v !== undefined) code += ` ${v}`;
      }
      const g = clockOrChanceGate(code);
      if (g !== undefined) return g;
    }
    return undefined;
  }

  private initTextsOnce(): Map<string, string> {
    if (this.initTexts === undefined) {
      this.initTexts = new Map();
      for (const b of this.bindings) {
        if (b.kind !== 'value' || b.target.type !== 'Identifier' || b.init === undefined || b.init.end - b.init.start >= 300) continue;
        if (!this.initTexts.has(b.target.name as string)) this.initTexts.set(b.target.name as string, this.text.slice(b.init.start, b.init.end));
      }
    }
    return this.initTexts;
  }
}
