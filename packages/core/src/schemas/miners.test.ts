import { describe, expect, it } from 'vitest';
import {
  AGENT_BUNDLE_FORMAT,
  AGENT_BUNDLE_LIMITS,
  AgentBundle,
  AgentSubmissionRequest,
  MinerAgent,
  MinerRegistration,
  MinerRegistrationRequest,
  MinerTrackParams,
} from './miners.js';

const HOTKEY = '5C9TqVEs5Q51zUdjvp6tSsjHAfLseJKq1Dq6ULcuSLqEuRSf';
const HASH = `sha256:${'ab'.repeat(32)}`;

function bundle(files: Array<{ path: string; content_base64?: string; mode?: string }>, entrypoint = files[0]?.path ?? 'agent.py') {
  return {
    format: AGENT_BUNDLE_FORMAT,
    entrypoint,
    files: files.map((file) => ({ content_base64: 'cHJpbnQoMSkK', ...file })),
  };
}

/** The issues of a failed parse as `path: message`. */
function issues(value: unknown): string[] {
  const result = AgentBundle.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('AgentBundle', () => {
  it('accepts nested relative paths, empty files and both modes', () => {
    const value = bundle([
      { path: 'agent.py', mode: '0755' },
      { path: 'lib/util.py', content_base64: '' },
      { path: 'lib/data/é.json', content_base64: 'e30=', mode: '0644' },
    ]);
    expect(AgentBundle.parse(value)).toEqual(value);
  });

  it.each([
    ['/etc/passwd', 'must be relative, not absolute'],
    ['../escape.py', 'must not contain ".." segments'],
    ['lib/../../x.py', 'must not contain ".." segments'],
    ['./agent.py', 'must not contain "." segments'],
    ['lib//x.py', 'must not contain empty segments'],
    ['lib/', 'must not contain empty segments'],
    ['lib\\x.py', 'must use "/" as separator'],
    ['C:/x.py', 'must be relative, not a drive path'],
    ['a\u0000b', 'must not contain control characters'],
    ['', 'must not be empty'],
    ['e\u0301.py', 'must be in Unicode NFC form'],
    ['x'.repeat(AGENT_BUNDLE_LIMITS.maxPathLength + 1), 'must be at most 256 characters'],
  ])('refuses the path %j, naming files.1.path', (path, message) => {
    const found = issues(bundle([{ path: 'agent.py' }, { path }], 'agent.py'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^files\.1\.path: /);
    expect(found[0]).toContain(message);
  });

  it('refuses paths that differ only in case, naming the later one', () => {
    expect(issues(bundle([{ path: 'Agent.py' }, { path: 'lib.py' }, { path: 'agent.PY' }]))).toEqual([
      'files.2.path: duplicates files.0.path (paths are compared case-insensitively)',
    ]);
  });

  it('refuses a file that sits under another file', () => {
    expect(issues(bundle([{ path: 'agent.py' }, { path: 'lib' }, { path: 'LIB/x.py' }]))).toEqual([
      'files.2.path: lies under files.1.path, which is a file',
    ]);
  });

  it('refuses an entrypoint that is not among the files (exact case)', () => {
    expect(issues(bundle([{ path: 'agent.py' }], 'main.py'))).toEqual(['entrypoint: must be the path of one of the files']);
    expect(issues(bundle([{ path: 'agent.py' }], 'Agent.py'))).toEqual(['entrypoint: must be the path of one of the files']);
  });

  it.each(['cHJpbnQ', 'cHJpbnQ=x', 'cHJp bnQ=', 'cHJpbnQ-', 'cHJpbnQ_', '===='])('refuses the base64 %j', (content) => {
    expect(issues(bundle([{ path: 'agent.py', content_base64: content }]))).toEqual([
      'files.0.content_base64: expected standard base64 with padding',
    ]);
  });

  it('checks multi-megabyte content in linear time, without overflowing the regexp stack', () => {
    const big = 'QUJD'.repeat(6 * 1024 * 1024);
    expect(issues(bundle([{ path: 'agent.py', content_base64: big }]))).toEqual([]);
    expect(issues(bundle([{ path: 'agent.py', content_base64: `${big}A` }]))).toEqual([
      'files.0.content_base64: expected standard base64 with padding',
    ]);
  });

  it('refuses an unknown mode, format, extra keys, no files and too many files', () => {
    expect(issues(bundle([{ path: 'agent.py', mode: '0777' }]))[0]).toMatch(/^files\.0\.mode: /);
    expect(issues({ ...bundle([{ path: 'agent.py' }]), format: 'tar' })[0]).toMatch(/^format: /);
    expect(issues({ ...bundle([{ path: 'agent.py' }]), extra: 1 })[0]).toMatch(/^: Unrecognized key: "extra"/);
    expect(issues(bundle([], 'agent.py'))).toContain('files: must hold at least one file');
    const many = Array.from({ length: AGENT_BUNDLE_LIMITS.maxFiles + 1 }, (_, i) => ({ path: `f${i}.py` }));
    expect(issues(bundle(many))).toContain(`files: must hold at most ${AGENT_BUNDLE_LIMITS.maxFiles} files`);
  });
});

describe('miner requests and responses', () => {
  it('AgentSubmissionRequest refuses blank or padded names and providers, naming the field', () => {
    const valid = { track: 'skills', name: 'sentinel', provider: 'openai', bundle: bundle([{ path: 'agent.py' }]) };
    expect(AgentSubmissionRequest.parse(valid)).toEqual(valid);
    for (const [field, value] of [['name', ''], ['name', ' x'], ['provider', 'a\nb'], ['name', 'x'.repeat(65)]] as const) {
      const result = AgentSubmissionRequest.safeParse({ ...valid, [field]: value });
      expect(result.success, `${field}=${JSON.stringify(value)}`).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual([field]);
    }
    expect(AgentSubmissionRequest.safeParse({ ...valid, track: 'nope' }).error?.issues[0]?.path).toEqual(['track']);
  });

  it('MinerRegistrationRequest and MinerTrackParams take a known track only', () => {
    expect(MinerRegistrationRequest.parse({ track: 'mcp_servers' })).toEqual({ track: 'mcp_servers' });
    expect(MinerRegistrationRequest.safeParse({ track: 'other' }).success).toBe(false);
    expect(MinerTrackParams.safeParse({ track: 'packages' }).success).toBe(true);
  });

  it('MinerRegistration and MinerAgent describe the answers', () => {
    const at = '2026-11-21T10:00:00.000+00:00';
    expect(MinerRegistration.parse({ hotkey: HOTKEY, track: 'skills', status: 'registered', registered_at: at }).status).toBe(
      'registered',
    );
    const agent = {
      hotkey: HOTKEY,
      track: 'skills',
      name: 'sentinel',
      provider: 'openai',
      version: 2,
      agent_hash: HASH,
      status: 'active',
      submitted_at: at,
    };
    expect(MinerAgent.parse(agent)).toEqual(agent);
    expect(MinerAgent.safeParse({ ...agent, version: 0 }).success).toBe(false);
    expect(MinerAgent.safeParse({ ...agent, submitted_at: '2026-11-21T10:00:00.000' }).success).toBe(false);
  });
});
