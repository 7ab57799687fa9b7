import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';

describe('the dashboard settings', () => {
  it('VIGIL_DASHBOARD and VIGIL_DASHBOARD_API_URL: defaults, and bad values named', () => {
    expect(loadConfig({}).dashboard).toEqual({ enabled: true, apiUrl: undefined });
    expect(loadConfig({ VIGIL_DASHBOARD: ' false ' }).dashboard.enabled).toBe(false);
    expect(loadConfig({ VIGIL_DASHBOARD_API_URL: 'https://api.example/' }).dashboard.apiUrl).toBe('https://api.example');
    expect(() => loadConfig({ VIGIL_DASHBOARD: 'no' })).toThrow('VIGIL_DASHBOARD: expected true or false, got "no"');
    expect(() => loadConfig({ VIGIL_DASHBOARD_API_URL: 'ftp://x' })).toThrow(/^VIGIL_DASHBOARD_API_URL: expected an http\(s\) URL/);
    expect(() => loadConfig({ VIGIL_DASHBOARD_API_URL: 'https://x/?a=1' })).toThrow(/^VIGIL_DASHBOARD_API_URL: /);
  });
});
