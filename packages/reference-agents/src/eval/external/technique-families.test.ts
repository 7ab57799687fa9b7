import { describe, expect, it } from 'vitest';
import { detectLicence } from './external-sample.js';
import { guarddogEcosystem, guarddogFamily, guarddogSnippetDoubt, mcpScannerFamily, skillScannerFamily } from './technique-families.js';
import { manifestForScriptLine, wrapSnippet } from './wrap-snippet.js';

describe('technique families', () => {
  it('maps GuardDog rules of every ecosystem to one family, and marks capability rules doubtful', () => {
    expect(guarddogFamily('npm-obfuscation').family).toBe('obfuscation');
    expect(guarddogFamily('api-obfuscation').family).toBe('obfuscation');
    expect(guarddogFamily('go-exec-base64').family).toBe('encoded-payload-execution');
    expect(guarddogFamily('npm-silent-process-execution').family).toBe('silent-process-execution');
    expect(guarddogFamily('threat-runtime-obfuscation-steganography').family).toBe('steganography');
    expect(guarddogFamily('exfiltrate-sensitive-data').doubt).toBeUndefined();
    expect(guarddogFamily('shady-links').doubt).toMatch(/not malicious by itself/);
    expect(guarddogFamily('clipboard-access').doubt).toMatch(/capability/);
    expect(guarddogSnippetDoubt('obfuscation.py', 41)).toMatch(/plain statements/);
    expect(guarddogSnippetDoubt('obfuscation.py', 6)).toBeUndefined();
    // An unknown rule is kept as its own family rather than dropped.
    expect(guarddogFamily('npm-brand-new_rule')).toEqual({ family: 'brand-new-rule' });
  });

  it('tells a GuardDog test file’s ecosystem by prefix, then by extension', () => {
    expect(guarddogEcosystem('rubygems-install-hook', '.rb')).toBe('rubygems');
    expect(guarddogEcosystem('go-exec-download', '.go')).toBe('go');
    expect(guarddogEcosystem('threat-runtime-self-propagation', '.js')).toBe('npm');
    expect(guarddogEcosystem('threat-process-hooks', '.json')).toBe('npm');
    expect(guarddogEcosystem('steganography', '.py')).toBe('pypi');
  });

  it('keeps Cisco’s categories as families and doubts vulnerable-but-honest skills and exploit write-ups', () => {
    expect(mcpScannerFamily('Unauthorized System Access')).toEqual({ family: 'unauthorized-system-access' });
    expect(skillScannerFamily('backdoor', 'magic-string-trigger')).toEqual({ family: 'backdoor' });
    expect(skillScannerFamily('behavioral-analysis', 'multi-file-exfiltration').family).toBe('data-exfiltration');
    expect(skillScannerFamily('sql-injection', 'database-query').doubt).toMatch(/vulnerable/);
    expect(skillScannerFamily('malicious', 'flowise-cve-2025-59528')).toMatchObject({ family: 'exploit-payload' });
    expect(skillScannerFamily('malicious', 'eicar-test').doubt).toMatch(/EICAR/);
    expect(skillScannerFamily('malicious', 'ascii-smuggling')).toEqual({ family: 'hidden-instructions' });
  });
});

describe('wrapSnippet', () => {
  it('wraps npm code as index.js behind a manifest naming it main', () => {
    const files = wrapSnippet({ ecosystem: 'npm', name: 'gd-x', rule: 'npm-obfuscation', code: 'eval(1)\n', ext: '.js' });
    expect(JSON.parse(files['package.json']!)).toEqual({ name: 'gd-x', version: '1.0.0', main: 'index.js' });
    expect(files['index.js']).toBe('eval(1)\n');
  });

  it('puts install-time Python rules in setup.py and the others in the package’s __init__.py', () => {
    expect(Object.keys(wrapSnippet({ ecosystem: 'pypi', name: 'gd-a', rule: 'cmd-overwrite', code: 'x\n', ext: '.py' }))).toEqual(['setup.py']);
    const files = wrapSnippet({ ecosystem: 'pypi', name: 'gd-b-1', rule: 'exec-base64', code: 'x\n', ext: '.py' });
    expect(files['gd_b_1/__init__.py']).toBe('x\n');
    expect(files['setup.py']).toContain('packages=["gd_b_1"]');
  });

  it('lays Go and Ruby samples out as their packages', () => {
    expect(Object.keys(wrapSnippet({ ecosystem: 'go', name: 'g', rule: 'go-exec-base64', code: '', ext: '.go' })).sort()).toEqual(['go.mod', 'main.go']);
    expect(Object.keys(wrapSnippet({ ecosystem: 'rubygems', name: 'r', rule: 'rubygems-install-hook', code: '', ext: '.rb' })).sort()).toEqual(['lib/r.rb', 'r.gemspec']);
  });

  it('turns an annotated script line of a not-quite-JSON manifest into a manifest with that script', () => {
    expect(JSON.parse(manifestForScriptLine('p', '      "postinstall": "echo \\"hi\\" && node x.js",')!)).toEqual({ name: 'p', version: '1.0.0', scripts: { postinstall: 'echo "hi" && node x.js' } });
    expect(manifestForScriptLine('p', '  }')).toBeNull();
  });
});

describe('detectLicence', () => {
  it('names the common licences and quotes the first line of any other', () => {
    expect(detectLicence('                                 Apache License\n                           Version 2.0, January 2004\n')).toBe('Apache-2.0');
    expect(detectLicence('MIT License\n\nCopyright (c) 2024 x\n\nPermission is hereby granted, free of charge')).toBe('MIT');
    expect(detectLicence('\nSome Custom Terms v1\nmore')).toBe('see licence file: Some Custom Terms v1');
  });
});
