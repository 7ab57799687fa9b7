import { describe, expect, it } from 'vitest';
import { parseWatchRef, watchRefText, WatchCreateRequest } from './watches.js';

describe('parseWatchRef', () => {
  it('reads npm and PyPI names in short and purl form, keeping npm capitals and normalising PyPI names', () => {
    expect(parseWatchRef('npm:left-pad')).toEqual({ ecosystem: 'npm', name: 'left-pad' });
    expect(parseWatchRef('npm:@types/node')).toEqual({ ecosystem: 'npm', name: '@types/node' });
    expect(parseWatchRef('npm:JSONStream')).toEqual({ ecosystem: 'npm', name: 'JSONStream' });
    expect(parseWatchRef('pkg:npm/JSONStream')).toEqual({ ecosystem: 'npm', name: 'JSONStream' });
    expect(parseWatchRef('pkg:npm/%40types/node')).toEqual({ ecosystem: 'npm', name: '@types/node' });
    expect(parseWatchRef('pypi:Typing_Extensions')).toEqual({ ecosystem: 'pypi', name: 'typing-extensions' });
    expect(parseWatchRef('pkg:pypi/Requests')).toEqual({ ecosystem: 'pypi', name: 'requests' });
    expect(watchRefText(parseWatchRef('pkg:pypi/Demo.Pkg'))).toBe('pypi:demo-pkg');
  });

  it('refuses versions, other types, qualifiers and names the registry could not hold, naming the fault', () => {
    const refusal = (input: string) => {
      try {
        parseWatchRef(input);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal('npm:left-pad@1.3.0')).toBe('package: "npm:left-pad@1.3.0" names a version; a watch names a package (drop the @version)');
    expect(refusal('npm:@scope/x@2')).toMatch(/names a version/);
    expect(refusal('pkg:npm/left-pad@1.3.0')).toMatch(/names a version/);
    expect(refusal('pypi:requests==2.0')).toMatch(/names a version/);
    expect(refusal('pkg:github/acme/x')).toBe('package: only npm and pypi packages are watched, not github');
    expect(refusal('pkg:npm/left-pad?repository_url=x')).toBe('package: a watched purl takes no qualifiers or subpath');
    expect(refusal('npm:has space')).toMatch(/is not an npm package name/);
    expect(refusal('pypi:-bad-')).toMatch(/is not a PyPI project name/);
    expect(refusal('pypi:Bad Name')).toBe('package: "Bad Name" is not a PyPI project name');
    expect(refusal('pypi:requests 2.0')).toMatch(/names a version/);
    expect(refusal('left-pad')).toMatch(/^package: expected npm:<name>, pypi:<name> or a purl/);
    expect(refusal('')).toMatch(/^package: expected a package name/);
  });

  it('is what the create request reads: a 422 message without the field prefix', () => {
    expect(WatchCreateRequest.parse({ package: 'npm:x' })).toEqual({ package: { ecosystem: 'npm', name: 'x' } });
    const result = WatchCreateRequest.safeParse({ package: 'npm:x@1' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^"npm:x@1" names a version/);
    expect(WatchCreateRequest.safeParse({ package: 'npm:x', other: 1 }).success).toBe(false);
  });
});
