/**
 * A shell line split into pipelines, stages and words, enough to follow files from command to command:
 * quotes removed, command substitutions (`$(…)`, backticks, `<(…)`) kept whole inside their word (a
 * backtick one rewritten as `$(…)`), redirections set apart (`< f`, `> f`, `>> f`, `<<< text`), an array
 * assignment (`A=(x y)`) kept as one word. Bounded: lines over 4,000 characters are not read, and a
 * substitution is scanned once (its end found by counting parentheses outside quotes).
 */
export interface Stage {
  words: string[];
  /** `< file`. */
  input?: string;
  /** `> file`, `>> file`, `&> file` (not `2> file`). */
  output?: string;
  /** `<<< text`. */
  hereString?: string;
}

export type Pipeline = Stage[];

const MAX_LINE = 4000;

/** The index just past the `)` closing the `(` at `open` (quotes inside skipped), or the text's end. */
function closing(text: string, open: number, openCh = '(', closeCh = ')'): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === "'" && closeCh === ')') {
      const end = text.indexOf("'", i + 1);
      i = end < 0 ? text.length : end;
    } else if (ch === openCh) depth++;
    else if (ch === closeCh && --depth === 0) return i + 1;
  }
  return text.length;
}

/** Pipelines of one line (`a | b && c; d` is two pipelines, the first of two stages). */
export function shellPipelines(line: string): Pipeline[] {
  if (line.length > MAX_LINE) return [];
  const pipelines: Pipeline[] = [];
  let pipeline: Pipeline = [];
  let stage: Stage = { words: [] };
  let word: string | null = null;
  let redirect: 'input' | 'output' | 'hereString' | 'skip' | null = null;
  const endWord = () => {
    if (word === null) return;
    if (redirect === 'input' || redirect === 'output' || redirect === 'hereString') stage[redirect] = word;
    else if (redirect !== 'skip') stage.words.push(word);
    redirect = null;
    word = null;
  };
  const endStage = () => {
    endWord();
    if (stage.words.length > 0 || stage.input !== undefined || stage.output !== undefined) pipeline.push(stage);
    stage = { words: [] };
  };
  const endPipeline = () => {
    endStage();
    if (pipeline.length > 0) pipelines.push(pipeline);
    pipeline = [];
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    const next = line[i + 1] ?? '';
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      endWord();
      continue;
    }
    if (ch === '#' && word === null) break;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      let out = '';
      while (j < line.length && line[j] !== '"') {
        if (line[j] === '\\' && j + 1 < line.length) {
          out += /["\\$`]/.test(line[j + 1] as string) ? line[j + 1] : `\\${line[j + 1]}`;
          j += 2;
        } else if (line[j] === '$' && line[j + 1] === '(') {
          const end = closing(line, j + 1);
          out += line.slice(j, end);
          j = end;
        } else if (line[j] === '`') {
          const end = line.indexOf('`', j + 1);
          out += `$(${line.slice(j + 1, end < 0 ? line.length : end)})`;
          j = end < 0 ? line.length : end + 1;
        } else out += line[j++];
      }
      word = (word ?? '') + out;
      i = j;
      continue;
    }
    if (ch === '\\') {
      word = (word ?? '') + next;
      i++;
      continue;
    }
    if (ch === '$' && next === '(') {
      const end = closing(line, i + 1);
      word = (word ?? '') + line.slice(i, end);
      i = end - 1;
      continue;
    }
    if (ch === '$' && next === '{') {
      const end = closing(line, i + 1, '{', '}');
      word = (word ?? '') + line.slice(i, end);
      i = end - 1;
      continue;
    }
    if (ch === '`') {
      const end = line.indexOf('`', i + 1);
      word = `${word ?? ''}$(${line.slice(i + 1, end < 0 ? line.length : end)})`;
      i = end < 0 ? line.length : end;
      continue;
    }
    if ((ch === '<' || ch === '>') && next === '(' && word === null) {
      const end = closing(line, i + 1);
      word = `<${line.slice(i + 1, end)}`;
      i = end - 1;
      continue;
    }
    // `NAME=(a b c)`, `NAME+=(d)`: an array assignment, one word.
    if (ch === '(' && word !== null && /^[A-Za-z_]\w*\+?=$/.test(word)) {
      const end = closing(line, i);
      word += line.slice(i, end);
      i = end - 1;
      continue;
    }
    if (ch === '|') {
      if (next === '|') {
        endPipeline();
        i++;
      } else {
        endStage();
        if (next === '&') i++;
      }
      continue;
    }
    if (ch === '&') {
      if (next === '&') {
        endPipeline();
        i++;
      } else if (next === '>') {
        endWord();
        redirect = 'output';
        i += line[i + 2] === '>' ? 2 : 1;
      } else endPipeline();
      continue;
    }
    if (ch === ';') {
      endPipeline();
      continue;
    }
    if ((ch === '(' || ch === ')' || ch === '{' || ch === '}') && word === null && (ch !== '{' || /\s|$/.test(next))) {
      endPipeline();
      continue;
    }
    if (ch === '<') {
      const fd = word !== null && /^\d+$/.test(word);
      if (fd) word = null;
      endWord();
      if (line.startsWith('<<<', i)) {
        redirect = 'hereString';
        i += 2;
      } else if (next === '<') {
        // A here-document's delimiter: its body is on the lines that follow.
        redirect = 'skip';
        i += next === '<' && line[i + 2] === '-' ? 2 : 1;
      } else if (next === '&') {
        redirect = 'skip';
        i++;
      } else redirect = 'input';
      continue;
    }
    if (ch === '>') {
      // `2> f`, `2>&1`, `>&2`: another descriptor, not what the stage writes.
      const fd = word !== null && /^\d+$/.test(word) ? word : null;
      if (fd !== null) word = null;
      endWord();
      if (next === '&') {
        redirect = 'skip';
        i++;
        if (/[\d-]/.test(line[i + 1] ?? '')) {
          i++;
          redirect = null;
        }
        continue;
      }
      if (next === '>') i++;
      else if (next === '|') i++;
      redirect = fd !== null && fd !== '1' ? 'skip' : 'output';
      continue;
    }
    word = (word ?? '') + ch;
  }
  endPipeline();
  return pipelines;
}

/** The `$(…)` / `<(…)` substitutions a word holds: their inner command text. */
export function substitutions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length && out.length < 8; i++) {
    if ((word[i] === '$' || word[i] === '<') && word[i + 1] === '(') {
      const end = closing(word, i + 1);
      out.push(word.slice(i + 2, end - 1));
      i = end - 1;
    }
  }
  return out;
}
