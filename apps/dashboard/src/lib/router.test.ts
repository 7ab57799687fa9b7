import { describe, expect, it } from 'vitest';
import { DASHBOARD_ROUTES } from '../../routes.js';
import { daysFrom, parseRoute } from './router.js';

const HOTKEY = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

describe('parseRoute', () => {
  it('every route vigil-server answers with the page is a page here', () => {
    for (const pattern of DASHBOARD_ROUTES) {
      const path = pattern.replace(/:[A-Za-z]+/g, 'abcdef12');
      expect(parseRoute(path, '').page, pattern).not.toBe('not_found');
    }
  });

  it('reads the pages and their parameters', () => {
    expect(parseRoute('/', '')).toEqual({ page: 'network' });
    expect(parseRoute('/threats', '?days=7')).toEqual({ page: 'threats', days: 7, adjustedFrom: null });
    expect(parseRoute('/threats', '')).toEqual({ page: 'threats', days: 30, adjustedFrom: null });
    expect(parseRoute('/threats', '?days=500')).toEqual({ page: 'threats', days: 180, adjustedFrom: '500' });
    expect(parseRoute('/threats', '?days=week')).toEqual({ page: 'threats', days: 30, adjustedFrom: 'week' });
    expect(parseRoute('/rounds/5f2c9a1e', '')).toEqual({ page: 'round', roundId: '5f2c9a1e' });
    expect(parseRoute(`/rounds/5f2c9a1e/miners/${HOTKEY}`, '')).toEqual({ page: 'miner', roundId: '5f2c9a1e', hotkey: HOTKEY });
    expect(parseRoute('/leaderboard', '?track=packages')).toEqual({ page: 'leaderboard', track: 'packages' });
    expect(parseRoute('/leaderboard', '?track=nope')).toEqual({ page: 'leaderboard', track: 'skills' });
    expect(parseRoute('/agents', '')).toEqual({ page: 'agents', track: undefined });
    expect(parseRoute(`/agents/${HOTKEY}`, '?track=mcp_servers')).toEqual({ page: 'agent', hotkey: HOTKEY, track: 'mcp_servers' });
    expect(parseRoute('/verify', '')).toEqual({ page: 'verify' });
    expect(parseRoute('/artifacts', '')).toEqual({ page: 'artifact', purl: '', sha256: '' });
    expect(parseRoute('/artifacts', '?purl=pkg%3Anpm%2F%2540scope%2Fname%401.0.0')).toEqual({ page: 'artifact', purl: 'pkg:npm/%40scope/name@1.0.0', sha256: '' });
    expect(parseRoute('/artifacts', `?sha256=sha256%3A${'ab'.repeat(32)}`)).toEqual({ page: 'artifact', purl: '', sha256: `sha256:${'ab'.repeat(32)}` });
    expect(parseRoute('/v1/health', '')).toEqual({ page: 'not_found', path: '/v1/health' });
  });

  it('days outside 1–180 are clamped to it; not a whole number falls back to the server default of 30', () => {
    expect(daysFrom('1')).toBe(1);
    expect(daysFrom('180')).toBe(180);
    expect(daysFrom('181')).toBe(180);
    expect(daysFrom('500')).toBe(180);
    expect(daysFrom('0')).toBe(1);
    for (const text of ['7.5', '-1', 'x', '', null]) expect(daysFrom(text)).toBe(30);
  });
});
