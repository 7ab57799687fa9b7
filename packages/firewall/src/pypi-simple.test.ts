import { describe, expect, it } from 'vitest';
import { normalizePypiName, pypiFileVersion, pypiReference, readSimplePage, simpleHtml, simpleJson } from './pypi-simple.js';

describe('PyPI file names', () => {
  it.each([
    ['requests', 'requests-2.31.0-py3-none-any.whl', '2.31.0'],
    ['zope-interface', 'zope.interface-6.0-cp311-cp311-manylinux_2_17_x86_64.whl', '6.0'],
    ['demo-pkg', 'demo_pkg-1.0.0.tar.gz', '1.0.0'],
    ['demo-pkg', 'Demo-Pkg-1.0.0rc1.zip', '1.0.0rc1'],
    ['demo-pkg', 'demo_pkg-1.0.0-1-py3-none-any.whl', '1.0.0'],
    ['demo-pkg', 'other-1.0.0.tar.gz', null],
    ['demo-pkg', 'demo_pkg-1.0.0-py3.7.egg', null],
    ['demo-pkg', 'demo_pkg-.tar.gz', null],
  ])('%s: %s → %s', (project, filename, version) => expect(pypiFileVersion(project, filename)).toBe(version));

  it('normalizes names and builds the file reference', () => {
    expect(normalizePypiName('Zope.Interface__x')).toBe('zope-interface-x');
    expect(pypiReference('demo-pkg', '1.0.0', 'demo_pkg-1.0.0.tar.gz')).toBe('pkg:pypi/demo-pkg@1.0.0?file_name=demo_pkg-1.0.0.tar.gz');
  });
});

describe('simple pages', () => {
  it('reads PEP 503 HTML (hash fragment, data attributes, relative URLs) and writes it back', () => {
    const html = '<html><body><a href="../../packages/d/1.0/d-1.0.tar.gz#sha256=ABCDEF" data-requires-python="&gt;=3.8">d-1.0.tar.gz</a><br/><a href="https://files.example/d-1.1-py3-none-any.whl#sha256=00ff" data-yanked="broken">d-1.1-py3-none-any.whl</a></body></html>';
    const page = readSimplePage('d', html, false, 'https://pypi.example/simple/d/');
    expect(page.files).toEqual([
      { filename: 'd-1.0.tar.gz', url: 'https://pypi.example/packages/d/1.0/d-1.0.tar.gz', hashes: { sha256: 'abcdef' }, 'requires-python': '>=3.8' },
      { filename: 'd-1.1-py3-none-any.whl', url: 'https://files.example/d-1.1-py3-none-any.whl', hashes: { sha256: '00ff' }, yanked: 'broken' },
    ]);
    const out = simpleHtml(page);
    expect(out).toContain('<a href="https://pypi.example/packages/d/1.0/d-1.0.tar.gz#sha256=abcdef" data-requires-python="&gt;=3.8">d-1.0.tar.gz</a>');
    expect(out).toContain('data-yanked="broken">d-1.1-py3-none-any.whl</a>');
  });

  it('keeps every field of a PEP 691 page', () => {
    const doc = { meta: { 'api-version': '1.1' }, name: 'd', versions: ['1.0'], files: [{ filename: 'd-1.0.tar.gz', url: '/p/d-1.0.tar.gz', hashes: { sha256: 'aa' }, size: 3, 'upload-time': '2026-01-01T00:00:00Z' }] };
    const page = readSimplePage('d', JSON.stringify(doc), true, 'https://pypi.example/simple/d/');
    expect(JSON.parse(simpleJson(page))).toEqual({ ...doc, files: [{ ...doc.files[0], url: 'https://pypi.example/p/d-1.0.tar.gz' }] });
  });
});
