import { describe, expect, it } from 'vitest';
import { readFirewallFlags } from './firewall-flags.js';

describe('vigil-server firewall flags', () => {
  it('defaults: the public registries, this host’s API, per-caller keys and reports on, anonymous callers refused', () => {
    expect(readFirewallFlags([], { PORT: '9090' })).toEqual({
      options: { npmUpstream: 'https://registry.npmjs.org', npmScopes: {}, pypiUpstream: 'https://pypi.org/simple', vigilUrl: 'http://127.0.0.1:9090', callerKeys: true, reportDecisions: true },
      port: 4873,
      host: '127.0.0.1',
      log: undefined,
    });
  });

  it('reads every flag, repeatable scopes and indexes in order, and the anonymous key from the environment only', () => {
    const settings = readFirewallFlags(
      ['--port=0', '--host', '0.0.0.0', '--vigil-url', 'http://vigil:8080', '--npm-upstream', 'http://npm', '--npm-scope', '@corp=http://corp', '--npm-scope=@b=http://b', '--pypi-upstream', 'http://p1/simple', '--pypi-upstream', 'http://p2/simple', '--policy', 'team', '--mode', 'wait', '--wait-seconds', '60', '--warn', 'block', '--cooldown-hours', '24', '--dashboard-url', 'http://dash', '--log', '/tmp/fw.log'],
      { VIGIL_FIREWALL_ANONYMOUS_KEY: ' vgl_anon ' },
    );
    expect(settings).toEqual({
      options: {
        npmUpstream: 'http://npm',
        npmScopes: { '@corp': 'http://corp', '@b': 'http://b' },
        pypiUpstream: ['http://p1/simple', 'http://p2/simple'],
        vigilUrl: 'http://vigil:8080',
        callerKeys: true,
        reportDecisions: true,
        apiKey: 'vgl_anon',
        policy: 'team',
        mode: 'wait',
        warn: 'block',
        waitSeconds: 60,
        cooldownHours: 24,
        dashboardUrl: 'http://dash',
      },
      port: 0,
      host: '0.0.0.0',
      log: '/tmp/fw.log',
    });
  });

  it('refuses what it cannot run, naming the flag', () => {
    const refusal = (args: string[]) => {
      try {
        readFirewallFlags(args, {});
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal(['--token', 'x'])).toBe('unknown option --token');
    expect(refusal(['--port'])).toBe('--port: expected a value');
    expect(refusal(['--port', '70000'])).toBe('--port: expected an integer from 0 to 65535, got "70000"');
    expect(refusal(['--port', '1.5'])).toBe('--port: expected an integer from 0 to 65535, got "1.5"');
    expect(refusal(['--mode', 'maybe'])).toBe('--mode: expected one of fail-open, fail-closed, wait, got "maybe"');
    expect(refusal(['--warn', 'x'])).toBe('--warn: expected allow or block, got "x"');
    expect(refusal(['--wait-seconds', 'soon'])).toBe('--wait-seconds: expected a number from 0 to 3600, got "soon"');
    expect(refusal(['--npm-scope', 'corp'])).toBe('--npm-scope: expected @scope=<registry url>, got "corp"');
    expect(refusal(['--npm-scope', '@a=http://x', '--npm-scope', '@a=http://y'])).toBe('--npm-scope: @a given twice');
    expect(refusal(['--mode', 'wait', '--mode', 'wait'])).toBe('--mode: given twice');
  });
});
