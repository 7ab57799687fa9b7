// The links of the current artifact, apart from the linker (linked-constants.ts) so that the readers
// (js-source, python-source, the code facts) can look them up without importing the linker, which
// itself parses with those readers.

/**
 * String constants a code file imports from the artifact's other modules, keyed by the file's text
 * (every reader sees a file as its text): the names the file binds (`S0` of `import { S0 } from
 * './consts.js'`, `from .consts import S0`) and the qualified names the readers resolve
 * (`./consts.S0` of `require('./consts').S0`, `.consts.S0`, `..consts.S0` of `from . import consts`).
 * A value moved to a constants module reads as if it were written in place, in every reader.
 * The links are the current artifact's only: each analysis links its own files first, which drops the
 * last artifact's links. Kept across artifacts, a file whose text two artifacts share (a bundled
 * dependency) read the other artifact's constants, and an evaluation run slowed from about a second to
 * tens of seconds per MCP server as the links piled up.
 */
const linked = new Map<string, ReadonlyMap<string, string>>();
const wrappers = new Map<string, ReadonlyMap<string, string>>();
const EMPTY: ReadonlyMap<string, string> = new Map();

/** The constants a file's text imports (empty when none were linked). */
export function importedConstantsOf(text: string): ReadonlyMap<string, string> {
  return linked.get(text) ?? EMPTY;
}

/**
 * The thin wrappers a file's text imports, by the qualified name it calls them with
 * (`./helpers.js.run` → `child_process.exec`): a function of another module that only passes its
 * parameters, in order, to one call. Calling it is making that call, so every reader resolves the
 * wrapper's name to the call it makes.
 */
export function importedWrappersOf(text: string): ReadonlyMap<string, string> {
  return wrappers.get(text) ?? EMPTY;
}

/** Drops the last artifact's links (the linker calls it before linking an artifact). */
export function clearLinks(): void {
  linked.clear();
  wrappers.clear();
  generation++;
}

/** Records what a file's text imports: constants and thin wrappers. */
export function setLinks(text: string, constants: ReadonlyMap<string, string>, calls: ReadonlyMap<string, string>): void {
  if (constants.size > 0) linked.set(text, constants);
  if (calls.size > 0) wrappers.set(text, calls);
  generation++;
}

let generation = 0;

/** A number that changes whenever the links do: what a reader keeping results that depend on them compares. */
export function linksGeneration(): number {
  return generation;
}
