import { open, type FileHandle } from 'node:fs/promises';
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { AgentFinding } from '@vigil/core';
import { scanPickles, type PickleGlobal } from '../code/pickle-globals.js';
import type { ArtifactFile } from './artifact-files.js';
import { referenceFinding } from './reference-finding.js';

/**
 * Files that hold a pickle a program loads with `pickle.load`, `torch.load`, `joblib.load` or
 * `numpy.load(allow_pickle=True)`: plain pickles, PyTorch checkpoints (a zip with `<name>/data.pkl`,
 * or the legacy format of pickles back to back), NumPy arrays of objects and their `.npz` archives.
 * `.bin` and `.pth` are read only when they start like a zip or a pickle (a `.pth` of a Python
 * package is a text file of paths).
 */
export const MODEL_FILE = /\.(?:pkl|pickle|joblib|dill|npy|npz|pt|pth|bin|ckpt)$/i;

/** Bytes of one pickle stream read at most; a model's pickle is its structure, not its weights (a few MB). */
const MAX_PICKLE_BYTES = 16 * 1024 * 1024;
/** Bytes of a zip's central directory read at most. */
const MAX_CENTRAL_DIRECTORY = 4 * 1024 * 1024;
/** Model files read per artifact at most, and pickle members per zip. */
const MAX_MODEL_FILES = 64;
const MAX_ZIP_MEMBERS = 32;

/**
 * Imports that run a command, evaluate code, open a connection, load more code or delete files when a
 * pickle names them: `module` → names (`*`: every name of the module). The lists of picklescan and
 * modelscan, with what fickling also treats as unsafe (importlib, marshal, types.CodeType, shutil,
 * operator getters that reach any attribute).
 */
const DANGEROUS: ReadonlyMap<string, ReadonlySet<string> | '*'> = new Map<string, ReadonlySet<string> | '*'>([
  ...(['os', 'posix', 'nt', 'subprocess', '_posixsubprocess', '_winapi', 'pty', 'socket', 'runpy', 'webbrowser', 'commands', 'popen2', 'code', 'codeop', 'ctypes', 'importlib', 'pkgutil', 'pickle', '_pickle', 'cPickle', 'dill', 'marshal', 'shutil', 'sys', 'httplib', 'http.client', 'ftplib', 'smtplib', 'telnetlib', 'urllib', 'urllib.request', 'urllib2', 'requests', 'requests.api', 'requests.sessions', 'httpx', 'aiohttp', 'aiohttp.client', 'asyncio.subprocess', 'multiprocessing', 'pdb', 'bdb', 'timeit', 'cProfile', 'profile', 'trace', 'zipimport', 'imp', '_thread', 'threading'] as const).map((m) => [m, '*'] as const),
  ['builtins', new Set(['eval', 'exec', 'compile', '__import__', 'getattr', 'setattr', 'delattr', 'open', 'apply', 'breakpoint', 'execfile', 'input', 'globals', 'locals', 'vars', '__loader__'])],
  ['__builtin__', new Set(['eval', 'exec', 'compile', '__import__', 'getattr', 'setattr', 'delattr', 'open', 'apply', 'breakpoint', 'execfile', 'input', 'globals', 'locals', 'vars', 'file'])],
  ['__builtins__', new Set(['eval', 'exec', 'compile', '__import__', 'getattr', 'setattr', 'delattr', 'open', 'apply', 'breakpoint', 'execfile', 'input', 'globals', 'locals', 'vars'])],
  ['operator', new Set(['attrgetter', 'methodcaller'])],
  ['_operator', new Set(['attrgetter', 'methodcaller'])],
  ['types', new Set(['CodeType', 'FunctionType', 'LambdaType', 'ModuleType'])],
  ['numpy.testing._private.utils', new Set(['runstring'])],
  ['torch.hub', '*'],
  ['torch.serialization', new Set(['load'])],
  ['logging.config', '*'],
]);
/** Module prefixes dangerous as a whole (`urllib.parse`, `os.path` too: a pickle of model weights names none of them). */
const DANGEROUS_PREFIX = /^(?:os|posix|nt|subprocess|socket|urllib\d?|requests|httpx|aiohttp|http|ctypes|importlib|multiprocessing|asyncio|shutil|pty|webbrowser)\./;

/**
 * What the pickles of models and data frames name: the safe list. Exact names, then modules whose
 * classes (a capitalised name) and `_rebuild*`/`_reconstruct*` helpers are safe to import.
 */
const SAFE: ReadonlyMap<string, ReadonlySet<string> | '*'> = new Map<string, ReadonlySet<string> | '*'>([
  ['collections', new Set(['OrderedDict', 'defaultdict', 'Counter', 'deque', 'namedtuple'])],
  ['builtins', new Set(['set', 'frozenset', 'slice', 'range', 'complex', 'bytearray', 'bytes', 'object', 'dict', 'list', 'tuple', 'int', 'float', 'str', 'bool'])],
  ['__builtin__', new Set(['set', 'frozenset', 'slice', 'xrange', 'complex', 'bytearray', 'object', 'dict', 'list', 'tuple', 'int', 'long', 'float', 'str', 'unicode', 'bool'])],
  // numpy pickles bytes under protocol 2 as `_codecs.encode(str, 'latin1')`.
  ['_codecs', new Set(['encode'])],
  ['copy_reg', new Set(['_reconstructor', '__newobj__'])],
  ['copyreg', new Set(['_reconstructor', '__newobj__'])],
  ['datetime', '*'],
  ['decimal', new Set(['Decimal'])],
  ['fractions', new Set(['Fraction'])],
  ['uuid', new Set(['UUID'])],
  ['pathlib', new Set(['Path', 'PosixPath', 'WindowsPath', 'PurePath', 'PurePosixPath', 'PureWindowsPath'])],
  ['functools', new Set(['partial'])],
  ['argparse', new Set(['Namespace'])],
  ['numpy', new Set(['ndarray', 'dtype', 'float64', 'float32', 'float16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool_', 'core', 'matrix'])],
  ['numpy.core.multiarray', new Set(['_reconstruct', 'scalar'])],
  ['numpy._core.multiarray', new Set(['_reconstruct', 'scalar'])],
  ['numpy.core.numeric', new Set(['_frombuffer'])],
  ['numpy._core.numeric', new Set(['_frombuffer'])],
  ['numpy.random._pickle', new Set(['__randomstate_ctor', '__bit_generator_ctor', '__generator_ctor'])],
  ['torch', new Set(['Size', 'device', 'dtype', 'Tensor', 'float32', 'float16', 'bfloat16', 'float64', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool', 'complex64', 'strided', 'sparse_coo', 'contiguous_format', 'channels_last', 'per_tensor_affine', 'per_channel_affine'])],
  ['torch._utils', new Set(['_rebuild_tensor', '_rebuild_tensor_v2', '_rebuild_tensor_v3', '_rebuild_parameter', '_rebuild_parameter_with_state', '_rebuild_qtensor', '_rebuild_sparse_tensor', '_rebuild_sparse_csr_tensor', '_rebuild_meta_tensor_no_storage', '_rebuild_wrapper_subclass', '_rebuild_device_tensor_from_numpy', '_rebuild_nested_tensor'])],
  ['torch._tensor', new Set(['_rebuild_from_type_v2'])],
  ['torch.serialization', new Set(['_get_layout'])],
]);
/** Libraries whose classes are what a pickled model or data frame is made of. */
const SAFE_CLASS_MODULE = /^(?:torch\.nn|torch\.optim|torch\.storage|torch\.utils\.data|torch\.ao|numpy|sklearn|scipy|pandas|xgboost|lightgbm|catboost|transformers|tokenizers|sentencepiece|timm|torchvision|collections|enum|typing)(?:\.|$)/;

export type ImportClass = 'dangerous' | 'safe' | 'unfamiliar';

/** The safe list, the danger list, or neither. */
export function classifyPickleImport(module: string, name: string): ImportClass {
  const danger = DANGEROUS.get(module);
  if (danger === '*' || (danger !== undefined && danger.has(name)) || DANGEROUS_PREFIX.test(module)) return 'dangerous';
  // `torch.Tensor` is safe; names that load more data or code are not, whatever the library.
  const safe = SAFE.get(module);
  if (safe === '*' || (safe !== undefined && safe.has(name))) return 'safe';
  if (/^(?:load|loads|read_pickle|runstring|system|popen|exec\w*|eval|spawn\w*|_load_from_bytes|from_pretrained)$/i.test(name)) return 'unfamiliar';
  if (SAFE_CLASS_MODULE.test(module) && (/^[A-Z]/.test(name) || /^_(?:rebuild|reconstruct|unpickle|new|create)\w*$/.test(name) || /Storage$/.test(name))) return 'safe';
  if (/^torch$/.test(module) && /Storage$/.test(name)) return 'safe';
  return 'unfamiliar';
}

interface PickleSource {
  /** Where in the file: `''` for the file itself, else the zip member. */
  member: string;
  globals: PickleGlobal[];
  unresolved: number;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

/** A NumPy `.npy` array: the pickle after the header when its dtype is object (`|O`), else null. */
function npyPickleStart(bytes: Buffer): number | null {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 6) !== '\x93NUMPY') return null;
  const major = bytes[6]!;
  const headerLen = major === 1 ? bytes.readUInt16LE(8) : bytes.length >= 12 ? bytes.readUInt32LE(8) : 0;
  const start = (major === 1 ? 10 : 12) + headerLen;
  const header = bytes.toString('latin1', major === 1 ? 10 : 12, Math.min(start, bytes.length));
  return /'descr'\s*:\s*'\|O'/.test(header) ? start : null;
}

/** The pickle streams in a buffer that is a pickle, a compressed pickle (joblib) or an object `.npy`. */
function picklesIn(bytes: Buffer, member: string, depth = 0): PickleSource[] {
  if (bytes.length === 0) return [];
  const npy = npyPickleStart(bytes);
  if (npy !== null) return [scanned(bytes, npy, member)];
  if (bytes.toString('latin1', 0, 6) === '\x93NUMPY') return [];
  // joblib.dump(compress=…) and gzip'd pickles: zlib or gzip around the pickle (lzma, bz2 and lz4 are not read).
  if (depth === 0 && bytes[0] === 0x1f && bytes[1] === 0x8b) return safeInflate(() => gunzipSync(bytes, { maxOutputLength: MAX_PICKLE_BYTES }), member);
  if (depth === 0 && bytes[0] === 0x78 && (bytes[0] * 256 + bytes[1]!) % 31 === 0) return safeInflate(() => inflateSync(bytes, { maxOutputLength: MAX_PICKLE_BYTES }), member);
  // joblib < 0.10: "ZF" + a length, then zlib.
  if (depth === 0 && bytes.toString('latin1', 0, 2) === 'ZF') {
    const z = bytes.indexOf(0x78, 2);
    if (z > 0 && z < 32) return safeInflate(() => inflateSync(bytes.subarray(z), { maxOutputLength: MAX_PICKLE_BYTES }), member);
  }
  return [scanned(bytes, 0, member)];
}

function safeInflate(inflate: () => Buffer, member: string): PickleSource[] {
  try {
    return picklesIn(inflate(), member, 1);
  } catch {
    return [];
  }
}

function scanned(bytes: Uint8Array, start: number, member: string): PickleSource {
  const scans = scanPickles(bytes, start);
  return { member, globals: scans.flatMap((s) => s.globals), unresolved: scans.reduce((a, s) => a + s.unresolved, 0) };
}

/** Pickle and object-array members of a zip (a PyTorch checkpoint, an `.npz`), read through its central directory. */
async function zipPickles(handle: FileHandle, size: number): Promise<PickleSource[]> {
  const tailLen = Math.min(size, 65_557);
  const tail = await readAt(handle, size - tailLen, tailLen);
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > tail.length) return [];
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || count === 0xffff) {
    // ZIP64 (checkpoints over 4 GB): the locator just before the end record points at the ZIP64 end record.
    const loc = eocd - 20;
    if (loc < 0 || tail.readUInt32LE(loc) !== 0x07064b50) return [];
    const z64 = Number(tail.readBigUInt64LE(loc + 8));
    const rec = await readAt(handle, z64, 56);
    if (rec.length < 56 || rec.readUInt32LE(0) !== 0x06064b50) return [];
    count = Number(rec.readBigUInt64LE(32));
    cdSize = Number(rec.readBigUInt64LE(40));
    cdOffset = Number(rec.readBigUInt64LE(48));
  }
  if (cdSize > MAX_CENTRAL_DIRECTORY || cdOffset + cdSize > size) return [];
  const cd = await readAt(handle, cdOffset, cdSize);
  const out: PickleSource[] = [];
  let members = 0;
  for (let p = 0, i = 0; i < count && p + 46 <= cd.length; i++) {
    if (cd.readUInt32LE(p) !== 0x02014b50) break;
    const method = cd.readUInt16LE(p + 10);
    let compSize = cd.readUInt32LE(p + 20);
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    let local = cd.readUInt32LE(p + 42);
    const name = cd.toString('utf8', p + 46, p + 46 + nameLen);
    if (compSize === 0xffffffff || local === 0xffffffff) {
      // ZIP64 extra field: the 64-bit sizes and offset, in that order, for the fields set to all ones.
      const extra = cd.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen);
      for (let e = 0; e + 4 <= extra.length; ) {
        const id = extra.readUInt16LE(e);
        const len = extra.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (cd.readUInt32LE(p + 24) === 0xffffffff && q + 8 <= extra.length) q += 8;
          if (compSize === 0xffffffff && q + 8 <= extra.length) {
            compSize = Number(extra.readBigUInt64LE(q));
            q += 8;
          }
          if (local === 0xffffffff && q + 8 <= extra.length) local = Number(extra.readBigUInt64LE(q));
        }
        e += 4 + len;
      }
    }
    p += 46 + nameLen + extraLen + commentLen;
    if (!/(?:^|\/)[^/]*\.(?:pkl|pickle|npy)$/i.test(name) || (method !== 0 && method !== 8)) continue;
    if (++members > MAX_ZIP_MEMBERS) break;
    const header = await readAt(handle, local, 30);
    if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) continue;
    const dataStart = local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const data = await readAt(handle, dataStart, Math.min(compSize, MAX_PICKLE_BYTES));
    let body: Buffer;
    try {
      body = method === 8 ? inflateRawSync(data, { maxOutputLength: MAX_PICKLE_BYTES, finishFlush: 2 }) : data;
    } catch {
      continue;
    }
    out.push(...picklesIn(body, name, 1));
  }
  return out;
}

/** The pickle streams of one model or data file (none when it is not one this reader knows). */
export async function modelFilePickles(file: ArtifactFile): Promise<PickleSource[]> {
  if (file.size === 0) return [];
  const handle = await open(file.absPath, 'r');
  try {
    const head = await readAt(handle, 0, Math.min(file.size, 8));
    const zip = head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;
    if (zip) return await zipPickles(handle, file.size);
    // `.bin`/`.pth`/`.pt`/`.ckpt` that are not zips: the legacy PyTorch format (protocol 2 pickles) only.
    if (/\.(?:bin|pth|pt|ckpt)$/i.test(file.path) && head[0] !== 0x80) return [];
    const bytes = await readAt(handle, 0, Math.min(file.size, MAX_PICKLE_BYTES));
    return picklesIn(bytes, '');
  } finally {
    await handle.close();
  }
}

function shown(g: PickleGlobal): string {
  const call = g.called ? `(${g.args.map((a) => JSON.stringify(a.slice(0, 120))).join(', ')})` : '';
  return `${g.module}.${g.name}${call}`;
}

/**
 * Findings for the model and pickle files of an artifact: CRIT when a pickle imports a name that runs
 * a command, evaluates code, opens a connection or loads more code (loading the file does it);
 * MED when it imports names outside the safe list of model and data-frame pickles.
 */
export async function modelFileFindings(files: readonly ArtifactFile[]): Promise<AgentFinding[]> {
  const findings: AgentFinding[] = [];
  let read = 0;
  for (const file of files) {
    if (!MODEL_FILE.test(file.path)) continue;
    if (++read > MAX_MODEL_FILES) break;
    let sources: PickleSource[];
    try {
      sources = await modelFilePickles(file);
    } catch {
      continue;
    }
    const dangerous: PickleGlobal[] = [];
    const unfamiliar: PickleGlobal[] = [];
    let unresolved = 0;
    let where = '';
    for (const source of sources) {
      unresolved += source.unresolved;
      for (const g of source.globals) {
        const kind = g.module === '?' || g.name === '?' ? 'unfamiliar' : classifyPickleImport(g.module, g.name);
        if (kind === 'dangerous') {
          if (dangerous.length === 0) where = source.member;
          dangerous.push(g);
        } else if (kind === 'unfamiliar' && !unfamiliar.some((u) => u.module === g.module && u.name === g.name)) unfamiliar.push(g);
      }
    }
    const inMember = where === '' ? '' : ` (in ${where})`;
    if (dangerous.length > 0) {
      const first = dangerous.find((g) => g.called) ?? dangerous[0]!;
      findings.push(
        referenceFinding({
          category: 'remote_code_execution',
          severity: 'CRIT',
          title: 'A pickle or model file runs code when loaded (dangerous import in the pickle)',
          file: file.path,
          // A binary file has no lines: the finding points at the file's start.
          line: 1,
          evidence: `${shown(first)}${inMember}${dangerous.length > 1 ? `; also ${[...new Set(dangerous.filter((g) => g !== first).map((g) => `${g.module}.${g.name}`))].slice(0, 4).join(', ')}` : ''}`,
        }),
      );
    } else if (unfamiliar.length > 0 || unresolved > 0) {
      findings.push(
        referenceFinding({
          category: 'remote_code_execution',
          severity: 'MED',
          title: 'A pickle or model file imports names outside the safe list of model pickles',
          file: file.path,
          line: 1,
          evidence: [...unfamiliar.slice(0, 5).map(shown), ...(unresolved > 0 ? [`${unresolved} import(s) whose name the reader could not resolve`] : [])].join(', '),
        }),
      );
    }
  }
  return findings;
}
