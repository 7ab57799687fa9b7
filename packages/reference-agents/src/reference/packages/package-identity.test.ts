import { describe, expect, it } from 'vitest';
import { isShadyHost, ownHost, packageIdentity, registrableDomain, vendorOfEnvName } from './package-identity.js';

describe('package identity', () => {
  it('takes registrable domains from metadata URLs, never code hosts or shared hosting', () => {
    const id = packageIdentity('@dbvendor/client', ['https://www.dbvendor.example/drivers', 'git+https://github.com/dbvendor/client.git', 'https://x.github.io/docs']);
    expect([...id.domains]).toEqual(['dbvendor.example']);
    expect(ownHost('download.dbvendor.example', id)).toBe(true);
    expect(ownHost('cdn.fastfiles.example', id)).toBe(false);
    expect(registrableDomain('api.files.acme.co.uk')).toBe('acme.co.uk');
  });

  it('treats IPs and throwaway hosts as shady, and vouches for a tunnel host only for the package named like it', () => {
    expect(isShadyHost('203.0.113.7')).toBe(true);
    expect(isShadyHost('root@198.51.100.2')).toBe(true);
    expect(isShadyHost('169.254.169.254')).toBe(false);
    expect(isShadyHost('abc.ngrok-free.app')).toBe(true);
    expect(ownHost('localtunnel.me', packageIdentity('localtunnel', []))).toBe(true);
    expect(ownHost('localtunnel.me', packageIdentity('localtunnel-helper', []))).toBe(false);
    expect(ownHost('203.0.113.7', packageIdentity('x', ['http://203.0.113.7/']))).toBe(false);
  });

  it('names the service of a secret variable, none for generic names', () => {
    expect(vendorOfEnvName('GITHUB_TOKEN')?.host.test('api.github.com')).toBe(true);
    expect(vendorOfEnvName('AWS_SECRET_ACCESS_KEY')?.host.test('s3.amazonaws.com')).toBe(true);
    expect(vendorOfEnvName('API_KEY')).toBeNull();
  });
});
