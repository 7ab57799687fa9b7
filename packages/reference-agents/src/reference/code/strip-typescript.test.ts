import { Parser } from 'acorn';
import { describe, expect, it } from 'vitest';
import { javascriptFacts } from './javascript/index.js';
import { stripTypeScript } from './strip-typescript.js';

const SOURCE = `import type { Options } from './options.js';
import { type Mode, run } from './run.js';
import fs = require('fs');
interface Report { host: string; env?: Record<string, string> }
type Id = string | number;
declare const VERSION: string;
export abstract class Sender<T extends object> implements Disposable {
  private readonly target: string = 'x';
  declare extra: number;
  count!: number;
  constructor(private host: string, public readonly port = 443, label?: string) {}
  abstract close(): void;
  send(this: Sender<T>, body: T): Promise<void> { return fetch(this.host as string, { method: 'POST', body: JSON.stringify(body)! }) as unknown as Promise<void>; }
  [Symbol.dispose](): void {}
}
export enum Level { Low = 1, High }
const first = <U,>(xs: U[]): U | undefined => xs[0];
const map: Map<string, number> = new Map<string, number>();
run((process.env satisfies NodeJS.ProcessEnv) as never, fs.readFileSync('/x', 'utf8'));
export = Sender;
`;

describe('stripTypeScript', () => {
  it('blanks type syntax to JavaScript of the same length and lines that acorn parses', () => {
    const js = stripTypeScript(SOURCE);
    expect(js).not.toBeNull();
    expect(js!.length).toBe(SOURCE.length);
    expect(js!.split('\n').length).toBe(SOURCE.split('\n').length);
    expect(() => Parser.parse(js!, { ecmaVersion: 'latest', sourceType: 'module' })).not.toThrow();
    expect(js).toContain("const  fs = require('fs');");
    expect(js).toContain('var  Level={ Low : 1, High }');
    expect(js).toContain('exports= Sender;');
    expect(js).not.toMatch(/interface|Record<|: string|private|readonly|abstract|implements|satisfies|\bas\b/);
  });

  it('is null for source that is not TypeScript at all', () => {
    expect(stripTypeScript('function (')).toBeNull();
  });

  it('lets the facts see calls that follow type annotations, at their own lines', () => {
    const facts = javascriptFacts(SOURCE, { typescript: true });
    expect(facts.parse).toBe('strict');
    const calls = facts.calls.map((c) => `${c.callee}@${c.line}`);
    expect(calls).toEqual(expect.arrayContaining(['fetch@13', 'JSON.stringify@13', 'fs.readFileSync@19']));
    expect(facts.imports.map((i) => i.module)).toContain('fs');
  });
});
