/**
 * A pickle opcode reader (protocols 0–5) that never unpickles: it walks the opcodes, keeps a
 * small model of the unpickler's stack and memo, and lists every `module.name` the stream would
 * import (GLOBAL, INST, STACK_GLOBAL with the strings pushed before it resolved through the stack
 * and memo) and which of them it would call (REDUCE, OBJ, INST, NEWOBJ), with the string arguments.
 * Importing a name is what `pickle.load` does with it (`find_class`), so the import list is the
 * file's attack surface, as in picklescan, modelscan and fickling.
 */

/** One imported global and what the stream does with it. */
export interface PickleGlobal {
  module: string;
  name: string;
  /** Byte offset of the opcode that imports it. */
  offset: number;
  /** True when the stream calls it (REDUCE, OBJ, INST, NEWOBJ). */
  called: boolean;
  /** String arguments of the first call, when they are plain strings. */
  args: string[];
}

export interface PickleScan {
  globals: PickleGlobal[];
  /** Offset just after the STOP opcode, or where reading stopped. */
  end: number;
  /** True when a STOP opcode ended the stream (false: truncated, unknown opcode or a bound hit). */
  complete: boolean;
  /** STACK_GLOBAL whose module or name was not a string the reader could follow. */
  unresolved: number;
}

type Value = { k: 'str'; v: string } | { k: 'global'; g: PickleGlobal } | { k: 'tuple'; items: Value[] } | { k: 'mark' } | { k: 'other' };

const OTHER: Value = { k: 'other' };
const MARK: Value = { k: 'mark' };
/** Opcodes executed at most (a pickle of a large model has a few hundred thousand). */
const MAX_OPS = 2_000_000;
/** Stack depth and memo entries modelled at most; past them values are dropped (offsets still advance). */
const MAX_STACK = 100_000;
const MAX_MEMO = 200_000;
const MAX_GLOBALS = 10_000;

function latin1(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i += 8192) s += String.fromCharCode(...bytes.subarray(i, Math.min(end, i + 8192)));
  return s;
}

function utf8(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
}

/** A protocol 0 quoted string (`'abc'` or `"abc"`) without its quotes; escapes are kept as written. */
function unquote(s: string): string {
  const t = s.trim();
  return t.length >= 2 && (t[0] === "'" || t[0] === '"') && t[t.length - 1] === t[0] ? t.slice(1, -1) : t;
}

/**
 * Reads one pickle from `bytes` at `start`. Stops at STOP, at an opcode it does not know (a file
 * that is not a pickle lists no globals), at the end of the bytes, or at MAX_OPS.
 */
export function scanPickle(bytes: Uint8Array, start = 0): PickleScan {
  const globals: PickleGlobal[] = [];
  const stack: Value[] = [];
  const memo = new Map<number, Value>();
  let unresolved = 0;
  let pos = start;
  const n = bytes.length;

  const u32 = (at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 0x1000000;
  const u64 = (at: number) => u32(at) + u32(at + 4) * 0x100000000;
  const line = (): string | null => {
    const nl = bytes.indexOf(10, pos);
    if (nl < 0) return null;
    const s = latin1(bytes, pos, nl);
    pos = nl + 1;
    return s.endsWith('\r') ? s.slice(0, -1) : s;
  };
  const push = (v: Value) => {
    if (stack.length < MAX_STACK) stack.push(v);
  };
  const pop = (): Value => stack.pop() ?? OTHER;
  const popMark = (): Value[] => {
    const items: Value[] = [];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (v.k === 'mark') break;
      items.push(v);
    }
    return items.reverse();
  };
  const addGlobal = (module: string, name: string, offset: number): PickleGlobal => {
    const g: PickleGlobal = { module, name, offset, called: false, args: [] };
    if (globals.length < MAX_GLOBALS) globals.push(g);
    return g;
  };
  const call = (callable: Value, args: Value[]) => {
    if (callable.k !== 'global') return;
    const g = callable.g;
    if (!g.called) {
      g.called = true;
      const flat = args.length === 1 && args[0]!.k === 'tuple' ? args[0]!.items : args;
      g.args = flat.filter((a): a is { k: 'str'; v: string } => a.k === 'str').map((a) => a.v.slice(0, 400));
    }
  };
  const memoPut = (key: number) => {
    if (memo.size < MAX_MEMO || memo.has(key)) memo.set(key, stack[stack.length - 1] ?? OTHER);
  };
  /** Reads `len` bytes after a length prefix; null when they run past the end. */
  const take = (len: number): [number, number] | null => {
    if (pos + len > n || len < 0) return null;
    const r: [number, number] = [pos, pos + len];
    pos += len;
    return r;
  };

  for (let ops = 0; pos < n && ops < MAX_OPS; ops++) {
    const at = pos;
    const op = bytes[pos++]!;
    switch (op) {
      case 0x28: // MARK
        push(MARK);
        break;
      case 0x2e: // STOP
        return { globals, end: pos, complete: true, unresolved };
      case 0x30: // POP
        pop();
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x32: // DUP
        push(stack[stack.length - 1] ?? OTHER);
        break;
      case 0x46: // FLOAT
      case 0x49: // INT
      case 0x4c: // LONG
        if (line() === null) return { globals, end: at, complete: false, unresolved };
        push(OTHER);
        break;
      case 0x50: // PERSID
        if (line() === null) return { globals, end: at, complete: false, unresolved };
        push(OTHER);
        break;
      case 0x51: // BINPERSID
        pop();
        push(OTHER);
        break;
      case 0x4a: // BININT
        if (take(4) === null) return { globals, end: at, complete: false, unresolved };
        push(OTHER);
        break;
      case 0x4b: // BININT1
        if (take(1) === null) return { globals, end: at, complete: false, unresolved };
        push(OTHER);
        break;
      case 0x4d: // BININT2
        if (take(2) === null) return { globals, end: at, complete: false, unresolved };
        push(OTHER);
        break;
      case 0x47: // BINFLOAT
        if (take(8) === null) return { globals, end: at, complete: false, unresolved };
        push(OTHER);
        break;
      case 0x4e: // NONE
      case 0x88: // NEWTRUE
      case 0x89: // NEWFALSE
        push(OTHER);
        break;
      case 0x8a: // LONG1
      case 0x43: // SHORT_BINBYTES
      case 0x55: // SHORT_BINSTRING
      case 0x8c: { // SHORT_BINUNICODE
        if (pos >= n) return { globals, end: at, complete: false, unresolved };
        const r = take(bytes[pos++]!);
        if (r === null) return { globals, end: at, complete: false, unresolved };
        push(op === 0x8c ? { k: 'str', v: utf8(bytes, r[0], r[1]) } : op === 0x55 ? { k: 'str', v: latin1(bytes, r[0], Math.min(r[1], r[0] + 4096)) } : OTHER);
        break;
      }
      case 0x8b: // LONG4
      case 0x42: // BINBYTES
      case 0x54: // BINSTRING
      case 0x58: { // BINUNICODE
        if (pos + 4 > n) return { globals, end: at, complete: false, unresolved };
        const len = u32(pos);
        pos += 4;
        const r = take(len);
        if (r === null) return { globals, end: at, complete: false, unresolved };
        push(op === 0x58 ? { k: 'str', v: utf8(bytes, r[0], Math.min(r[1], r[0] + 65536)) } : op === 0x54 ? { k: 'str', v: latin1(bytes, r[0], Math.min(r[1], r[0] + 4096)) } : OTHER);
        break;
      }
      case 0x8d: // BINUNICODE8
      case 0x8e: // BINBYTES8
      case 0x96: { // BYTEARRAY8
        if (pos + 8 > n) return { globals, end: at, complete: false, unresolved };
        const len = u64(pos);
        pos += 8;
        const r = take(len);
        if (r === null) return { globals, end: at, complete: false, unresolved };
        push(op === 0x8d ? { k: 'str', v: utf8(bytes, r[0], Math.min(r[1], r[0] + 65536)) } : OTHER);
        break;
      }
      case 0x53: // STRING
      case 0x56: { // UNICODE
        const s = line();
        if (s === null) return { globals, end: at, complete: false, unresolved };
        push({ k: 'str', v: op === 0x53 ? unquote(s) : s });
        break;
      }
      case 0x63: // GLOBAL
      case 0x69: { // INST
        const module = line();
        const name = module === null ? null : line();
        if (module === null || name === null) return { globals, end: at, complete: false, unresolved };
        const g = addGlobal(module.trim(), name.trim(), at);
        if (op === 0x63) push({ k: 'global', g });
        else {
          call({ k: 'global', g }, popMark());
          push(OTHER);
        }
        break;
      }
      case 0x93: { // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (module.k === 'str' && name.k === 'str') push({ k: 'global', g: addGlobal(module.v, name.v, at) });
        else {
          unresolved++;
          push({ k: 'global', g: addGlobal(module.k === 'str' ? module.v : '?', name.k === 'str' ? name.v : '?', at) });
        }
        break;
      }
      case 0x52: { // REDUCE
        const args = pop();
        call(pop(), [args]);
        push(OTHER);
        break;
      }
      case 0x6f: { // OBJ
        const items = popMark();
        if (items.length > 0) call(items[0]!, items.slice(1));
        push(OTHER);
        break;
      }
      case 0x81: { // NEWOBJ
        const args = pop();
        call(pop(), [args]);
        push(OTHER);
        break;
      }
      case 0x92: { // NEWOBJ_EX
        pop();
        const args = pop();
        call(pop(), [args]);
        push(OTHER);
        break;
      }
      case 0x61: // APPEND
      case 0x62: // BUILD
        pop();
        break;
      case 0x73: // SETITEM
        pop();
        pop();
        break;
      case 0x65: // APPENDS
      case 0x75: // SETITEMS
      case 0x90: // ADDITEMS
        popMark();
        break;
      case 0x64: // DICT
      case 0x6c: // LIST
      case 0x91: // FROZENSET
        popMark();
        push(OTHER);
        break;
      case 0x74: // TUPLE
        push({ k: 'tuple', items: popMark() });
        break;
      case 0x7d: // EMPTY_DICT
      case 0x5d: // EMPTY_LIST
      case 0x8f: // EMPTY_SET
      case 0x97: // NEXT_BUFFER
        push(OTHER);
        break;
      case 0x29: // EMPTY_TUPLE
        push({ k: 'tuple', items: [] });
        break;
      case 0x85: // TUPLE1
      case 0x86: // TUPLE2
      case 0x87: { // TUPLE3
        const count = op - 0x84;
        const items: Value[] = [];
        for (let i = 0; i < count; i++) items.unshift(pop());
        push({ k: 'tuple', items });
        break;
      }
      case 0x67: { // GET
        const s = line();
        if (s === null) return { globals, end: at, complete: false, unresolved };
        push(memo.get(Number.parseInt(s, 10)) ?? OTHER);
        break;
      }
      case 0x68: // BINGET
        if (pos >= n) return { globals, end: at, complete: false, unresolved };
        push(memo.get(bytes[pos++]!) ?? OTHER);
        break;
      case 0x6a: // LONG_BINGET
        if (pos + 4 > n) return { globals, end: at, complete: false, unresolved };
        push(memo.get(u32(pos)) ?? OTHER);
        pos += 4;
        break;
      case 0x70: { // PUT
        const s = line();
        if (s === null) return { globals, end: at, complete: false, unresolved };
        memoPut(Number.parseInt(s, 10));
        break;
      }
      case 0x71: // BINPUT
        if (pos >= n) return { globals, end: at, complete: false, unresolved };
        memoPut(bytes[pos++]!);
        break;
      case 0x72: // LONG_BINPUT
        if (pos + 4 > n) return { globals, end: at, complete: false, unresolved };
        memoPut(u32(pos));
        pos += 4;
        break;
      case 0x94: // MEMOIZE
        memoPut(memo.size);
        break;
      case 0x80: // PROTO
        if (pos >= n || bytes[pos]! > 5) return { globals, end: at, complete: false, unresolved };
        pos++;
        break;
      case 0x95: // FRAME
        if (take(8) === null) return { globals, end: at, complete: false, unresolved };
        break;
      case 0x98: // READONLY_BUFFER
        break;
      case 0x82: // EXT1
      case 0x83: // EXT2
      case 0x84: { // EXT4
        // An object from the copyreg extension registry: an import the reader cannot name.
        if (take(op === 0x82 ? 1 : op === 0x83 ? 2 : 4) === null) return { globals, end: at, complete: false, unresolved };
        unresolved++;
        push({ k: 'global', g: addGlobal('?', '?', at) });
        break;
      }
      default:
        return { globals, end: at, complete: false, unresolved };
    }
  }
  return { globals, end: pos, complete: false, unresolved };
}

/**
 * Every pickle in a row from `start` (the legacy PyTorch format writes several back to back:
 * magic number, protocol, system info, the model, storage keys), up to `maxPickles`.
 */
export function scanPickles(bytes: Uint8Array, start = 0, maxPickles = 8): PickleScan[] {
  const out: PickleScan[] = [];
  let pos = start;
  for (let i = 0; i < maxPickles && pos < bytes.length; i++) {
    const scan = scanPickle(bytes, pos);
    out.push(scan);
    if (!scan.complete || scan.end <= pos) break;
    pos = scan.end;
    // Only another protocol 2+ pickle follows in these formats; raw storage bytes come after the last.
    if (bytes[pos] !== 0x80) break;
  }
  return out;
}
