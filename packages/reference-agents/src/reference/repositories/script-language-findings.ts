import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { decompress } from '../code/decode-bytes.js';
import { shellCommandFindings } from './shell-command-findings.js';

/**
 * Ruby and PHP source read for what it runs: a light tokenizer per language, not a parser. The
 * string constructions a dropper hides its code in are folded to literals first (Ruby
 * `Base64.decode64("…")`, `"…".unpack1("m")`, `[…].pack("c*")`, `"…".reverse`, `Zlib::Inflate.inflate`;
 * PHP `base64_decode`, `gzinflate`, `gzuncompress`, `str_rot13`, `strrev`, `hex2bin` chains), then:
 * code evaluated from the network (CRIT), a decoded program evaluated (HIGH, CRIT where the file runs
 * by itself or the program runs commands), request data run as code or a command (a web shell, CRIT),
 * and the commands `system`, `exec`, backticks, `IO.popen`, `open("|…")`, `shell_exec`, `passthru`,
 * `proc_open` are given run through the shell command checks.
 */
export type ScriptLanguage = 'ruby' | 'php';

export interface ScriptRunContext {
  /** What runs the file, for titles: `gem native extension build`, `Composer post-install-cmd script`. */
  where: string;
  /** The file runs with nobody choosing to run it (gem install, composer install, a bare rake). */
  automatic: boolean;
  /** It is a step of building or installing the project (shell checks' `buildStep`). */
  buildStep: boolean;
  /** Line numbers (1-based) that run on the automatic path; others are judged as code run by hand (a Rakefile's other tasks). */
  automaticLines?: ReadonlySet<number>;
}

// Bounds: a source file is read up to this, a folded literal decoded up to this.
const MAX_SOURCE = 512 * 1024;
const MAX_LITERAL = 64 * 1024;

const quote = (s: string) => `"${s.replace(/[\\"$#]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
const unquote = (s: string) => s.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));

function b64(text: string): Buffer | undefined {
  const t = text.replace(/\\n|\s/g, '');
  return /^[A-Za-z0-9+/_-]+=*$/.test(t) && t.length <= MAX_LITERAL ? Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64') : undefined;
}

/** Ruby source with decode constructions over literals replaced by the decoded literal (innermost first). */
export function foldRubyStrings(text: string): string {
  let out = text;
  for (let pass = 0; pass < 4; pass++) {
    const before = out;
    out = out
      .replace(/\bBase64\.(?:strict_|urlsafe_)?decode64\s*\(?\s*(["'])([^"'\n]{4,})\1\s*\)?/g, (m, _q: string, s: string) => {
        const bytes = b64(s);
        return bytes === undefined ? m : quote(bytes.toString('latin1'));
      })
      .replace(/(["'])([A-Za-z0-9+/=\\n]{8,})\1\.unpack1?\s*\(?\s*["']m0?["']\s*\)?(?:\s*\[\s*0\s*\]|\.first)?/g, (m, _q: string, s: string) => {
        const bytes = b64(s);
        return bytes === undefined ? m : quote(bytes.toString('latin1'));
      })
      .replace(/\[([\d\s,]{3,20000})\]\.pack\s*\(?\s*["'][cCU]\*["']\s*\)?/g, (m, list: string) => {
        const codes = list.split(',').map((n) => Number(n.trim()));
        return codes.some((n) => !Number.isInteger(n) || n < 0 || n > 0x10ffff) ? m : quote(String.fromCodePoint(...codes));
      })
      .replace(/\bZlib(?:::Inflate\.inflate|\.inflate)\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)/g, (m, s: string) => {
        const text = decompress(Buffer.from(unquote(s), 'latin1'));
        return text === undefined ? m : quote(text);
      })
      .replace(/(["'])([^"'\n]{4,})\1\.reverse\b/g, (_m, _q: string, s: string) => quote([...s].reverse().join('')))
      .replace(/"((?:[^"\\\n]|\\.)*)"\s*\+\s*"((?:[^"\\\n]|\\.)*)"/g, '"$1$2"');
    if (out === before) break;
  }
  return out;
}

const PHP_DECODERS: Readonly<Record<string, (s: string) => string | undefined>> = {
  base64_decode: (s) => b64(s)?.toString('latin1'),
  gzinflate: (s) => decompress(Buffer.from(s, 'latin1'), 'raw'),
  gzuncompress: (s) => decompress(Buffer.from(s, 'latin1')),
  gzdecode: (s) => decompress(Buffer.from(s, 'latin1'), 'gzip'),
  str_rot13: (s) => s.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97))),
  strrev: (s) => [...s].reverse().join(''),
  hex2bin: (s) => (/^(?:[0-9a-f]{2})+$/i.test(s) ? Buffer.from(s, 'hex').toString('latin1') : undefined),
  rawurldecode: (s) => decodeURIComponent(s),
  urldecode: (s) => decodeURIComponent(s.replace(/\+/g, ' ')),
};

/** PHP source with decoder calls over a literal (`gzinflate(base64_decode('…'))`) replaced by the decoded literal. */
export function foldPhpStrings(text: string): string {
  let out = text;
  for (let pass = 0; pass < 6; pass++) {
    const before = out;
    out = out.replace(/\b(base64_decode|gzinflate|gzuncompress|gzdecode|str_rot13|strrev|hex2bin|rawurldecode|urldecode)\s*\(\s*(?:"((?:[^"\\]|\\.){0,65536})"|'((?:[^'\\]|\\.){0,65536})')\s*\)/g, (m, fn: string, dq: string | undefined, sq: string | undefined) => {
        try {
          const decoded = PHP_DECODERS[fn]!(dq !== undefined ? unquote(dq) : sq!.replace(/\\(['\\])/g, '$1'));
          return decoded === undefined ? m : quote(decoded);
        } catch {
          return m;
        }
      })
      .replace(/"((?:[^"\\\n]|\\.)*)"\s*\.\s*"((?:[^"\\\n]|\\.)*)"/g, '"$1$2"');
    if (out === before) break;
  }
  return out;
}

interface LanguageRules {
  fold: (text: string) => string;
  /** A call that runs its argument as code. */
  evals: RegExp;
  /** A call, or a literal form, that runs its argument as a shell command; group 1 or 2 is an inline command. */
  shell: RegExp;
  /** Code that reads from the network. */
  network: RegExp;
  /** A decode call left in the code (over a variable, or folded away above). */
  decodes: RegExp;
  /** Data an HTTP request carries (PHP's superglobals): run as code or a command, a web shell. */
  request?: RegExp;
  comment: RegExp;
}

const RUBY: LanguageRules = {
  fold: foldRubyStrings,
  evals: /\b(?:Kernel\.)?(?:eval|instance_eval|class_eval|module_eval|binding\.eval)\s*[( ]|\bRubyVM::InstructionSequence\.compile\b/g,
  shell: /\b(?:Kernel\.)?(?:system|exec|spawn)\s*\(?\s*(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)')|`([^`\n]+)`|%x[{([]([^})\]\n]+)[})\]]|\bIO\.popen\s*\(\s*["']([^"'\n]+)["']|\bOpen3\.\w+\s*\(\s*["']([^"'\n]+)["']|\b(?:Kernel\.)?open\s*\(\s*["']\|([^"'\n]+)["']/g,
  network: /\bNet::HTTP\.(?:get|get_response|post|start)\b|\bURI\.open\b|\bURI\.parse\([^)]*\)\.open\b|\bopen\s*\(\s*["']https?:|\b(?:HTTParty|Faraday|RestClient|Excon|HTTP)\.(?:get|post)\b|\bOpenURI\b/,
  decodes: /\bBase64\.\w*decode64\b|\.unpack1?\s*\(?\s*["']m|\.pack\s*\(?\s*["'][cCU]\*|\bZlib\b/,
  comment: /^\s*#/,
};

const PHP: LanguageRules = {
  fold: foldPhpStrings,
  evals: /\b(?:eval|assert|create_function)\s*\(|\bpreg_replace\s*\(\s*['"](.)[^'"]*\1[a-z]*e[a-z]*['"]/gi,
  // A method of an object (`$pdo->exec(…)`, `Foo::system(…)`) is not the shell; the literal is optional (request data checked).
  shell: /(?<![>:$\w])(?:system|shell_exec|passthru|exec|popen|proc_open|pcntl_exec)\s*\(\s*(?:"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)')?|`([^`\n]+)`/gi,
  network: /\bfile_get_contents\s*\(\s*['"](?:https?|ftp):|\bcurl_exec\s*\(|\bfopen\s*\(\s*['"]https?:|\bfsockopen\s*\(|\bstream_socket_client\s*\(|\bfile\s*\(\s*['"]https?:/i,
  decodes: /\b(?:base64_decode|gzinflate|gzuncompress|gzdecode|str_rot13|strrev|hex2bin)\s*\(/i,
  request: /\$_(?:GET|POST|REQUEST|COOKIE|FILES)\b|\$_SERVER\s*\[\s*['"]HTTP_|php:\/\/input|\bgetallheaders\s*\(/,
  comment: /^\s*(?:\/\/|#(?!\[)|\*|\/\*)/,
};

/** The statement an evaluating call sits in (to its `;` or line end) and the variables assigned on lines before it. */
function argumentOf(text: string, index: number): string {
  const end = text.slice(index, index + 4000).search(/;|\n(?!\s*[.+,)])/);
  return text.slice(index, end < 0 ? index + 4000 : index + end);
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * What a variable in an evaluated argument holds: the right-hand sides of its assignments in the file
 * (`code = Net::HTTP.get(uri)`, `$c = file_get_contents('https://…')`), so `eval(code)` reads as what it evaluates.
 */
function assignedValues(text: string, argument: string, language: ScriptLanguage): string {
  const names = [...argument.matchAll(language === 'php' ? /\$(\w+)/g : /\b([a-z_]\w*)\b/g)].map((m) => m[1]!).slice(0, 8);
  const values: string[] = [];
  for (const name of names) {
    const re = language === 'php' ? new RegExp(String.raw`\$${name}\s*\.?=\s*([^;\n]{1,2000})`, 'g') : new RegExp(String.raw`(?:^|[\s;(])@?${name}\s*(?:\|\|)?=(?!=)\s*([^\n]{1,2000})`, 'gm');
    for (const m of text.matchAll(re)) if (values.length < 16) values.push(m[1]!);
  }
  return values.join('\n');
}

export function scriptLanguageOf(path: string): ScriptLanguage | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/\.(?:rb|gemspec|rake)$/.test(base) || /^(?:Rakefile|Gemfile|Guardfile|Vagrantfile|Podfile|Fastfile)$/.test(base)) return 'ruby';
  if (/\.(?:php|phtml|php[5-8]?|inc)$/.test(base)) return 'php';
  return null;
}

/** Cheap pre-filter: a file with none of these runs nothing this reader would report. */
const WORTH_READING: Readonly<Record<ScriptLanguage, RegExp>> = {
  ruby: /\beval\b|\bsystem\b|\bexec\b|\bspawn\b|`|%x|popen|Open3|\bopen\s*\(\s*["']\||_eval\b|InstructionSequence/,
  php: /\beval\b|\bassert\b|create_function|preg_replace|system|shell_exec|passthru|\bexec\b|popen|proc_open|pcntl_exec|`/i,
};

export function scriptLanguageFindings(path: string, source: string, language: ScriptLanguage, ctx: ScriptRunContext): AgentFinding[] {
  if (!WORTH_READING[language].test(source)) return [];
  const rules = language === 'ruby' ? RUBY : PHP;
  const raw = source.length > MAX_SOURCE ? source.slice(0, MAX_SOURCE) : source;
  // Comment lines blanked (same line breaks), so what a comment shows is not what the file runs.
  const text = raw
    .split('\n')
    .map((l) => (rules.comment.test(l) ? '' : l))
    .join('\n');
  const folded = rules.fold(text);
  const out: AgentFinding[] = [];
  const push = (category: string, severity: 'CRIT' | 'HIGH' | 'MED', title: string, line: number, evidence: string) => out.push(referenceFinding({ category, severity, title, file: path, line, evidence: evidence.trim().slice(0, 300) }));
  const autoAt = (line: number) => ctx.automatic && (ctx.automaticLines === undefined || ctx.automaticLines.has(line));
  const lang = language === 'ruby' ? 'Ruby' : 'PHP';
  // Folding keeps line breaks inside a literal escaped, so an index of the folded text maps to the same line.
  for (const m of folded.matchAll(rules.evals)) {
    const line = lineAt(folded, m.index);
    const argument = argumentOf(folded, m.index + m[0].length);
    const rawArgument = argumentOf(text, text.split('\n').slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0));
    const held = assignedValues(folded, argument, language);
    const rawHeld = assignedValues(text, rawArgument, language);
    const reach = `${argument}\n${held}`;
    if (rules.network.test(reach)) {
      push('remote_code_execution', 'CRIT', `${lang} code downloads code and evaluates it`, line, `${m[0]}${argument}`);
    } else if (rules.request !== undefined && rules.request.test(reach)) {
      push('remote_code_execution', 'CRIT', `${lang} code runs request data as code (a web shell)`, line, `${m[0]}${argument}`);
    } else if (rules.decodes.test(`${rawArgument}\n${rawHeld}`)) {
      // The decoded program itself: what it runs decides between a hidden program and a hidden dropper.
      const inner = `${argument}\n${held}`;
      const dangerous = rules.shell.test(inner) || rules.network.test(inner) || /\b(?:curl|wget|powershell|bash|\/bin\/sh)\b/.test(inner);
      rules.shell.lastIndex = 0;
      push('obfuscation', dangerous || autoAt(line) ? 'CRIT' : 'HIGH', `${lang} code decodes a hidden program and evaluates it`, line, `${m[0]}${argument}`);
    }
  }
  for (const m of folded.matchAll(rules.shell)) {
    const line = lineAt(folded, m.index);
    const literal = m.slice(1).find((g) => g !== undefined && g.length > 0);
    const call = argumentOf(folded, m.index);
    if (rules.request !== undefined && rules.request.test(`${call}\n${assignedValues(folded, call, language)}`) && !/escapeshellarg|escapeshellcmd/i.test(call)) {
      push('remote_code_execution', 'CRIT', `${lang} code runs request data as a shell command (a web shell)`, line, call);
      continue;
    }
    if (literal === undefined) continue;
    const command = unquote(literal);
    const automatic = autoAt(line);
    out.push(...shellCommandFindings(command, { file: path, line, where: automatic ? ctx.where : `${lang} code`, automatic, buildStep: automatic && ctx.buildStep }));
  }
  return out;
}

/**
 * The lines of a Rakefile a bare `rake` runs: everything outside a task block (loaded on every rake
 * command) and the blocks of the `default` task and the tasks it depends on.
 */
export function rakeDefaultLines(text: string): Set<number> {
  const lines = text.split('\n');
  const defaults = new Set<string>();
  const dep = /\btask\s+(?::default\s*=>|default:|["']default["']\s*=>)\s*(\[[^\]]*\]|:\w+|["'][\w:]+["'])/.exec(text);
  if (dep !== null) for (const n of dep[1]!.matchAll(/:?["']?([\w:]+)["']?/g)) defaults.add(n[1]!);
  defaults.add('default');
  const blocks: { name: string; from: number; to: number }[] = [];
  lines.forEach((line, i) => {
    const t = /^(\s*)(?:task|file|multitask)\s+(?::(\w+)|["']([\w:]+)["']|(\w+):)[^\n]*\bdo\b/.exec(line);
    if (t === null) return;
    const indent = t[1]!;
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^${indent}end\\b`).test(lines[end]!)) end++;
    blocks.push({ name: t[2] ?? t[3] ?? t[4]!, from: i + 1, to: end + 1 });
  });
  for (const b of blocks) {
    const deps = /=>\s*(\[[^\]]*\]|:\w+)|\w+:\s*(\[[^\]]*\]|:\w+)/.exec(lines[b.from - 1]!);
    if (defaults.has(b.name) && deps !== null) for (const n of (deps[1] ?? deps[2]!).matchAll(/:?["']?(\w+)/g)) defaults.add(n[1]!);
  }
  const out = new Set<number>();
  lines.forEach((_, i) => {
    const inside = blocks.find((b) => i + 1 >= b.from && i + 1 <= b.to);
    if (inside === undefined || defaults.has(inside.name)) out.add(i + 1);
  });
  return out;
}

/** The extension build scripts a gemspec names (`extensions = ['ext/x/extconf.rb']`, `extensions << '…'`, `%w[…]`), relative to the gemspec's directory. */
export function gemspecExtensions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\.extensions\s*(?:=|<<|\+=|\.push\s*\(?|\.concat\s*\(?)\s*(\[[^\]]*\]|%w[[(]([^\])]*)[\])]|["'][^"']+["']|Dir\[[^\]]*\])/g)) {
    const list = m[2] !== undefined ? m[2].split(/\s+/) : [...m[1]!.matchAll(/["']([^"']+)["']/g)].map((x) => x[1]!);
    for (const p of list) if (p !== '' && !p.includes('..') && !p.includes('*') && !p.startsWith('/')) out.push(p.replace(/^\.\//, ''));
  }
  return out;
}

/** Composer's event scripts: what `composer install`, `update`, `create-project` and autoload dumps run by themselves. */
const COMPOSER_EVENT = /^(?:pre|post)-(?:install|update|autoload-dump|status|archive|root-package-install|create-project)-cmd$|^(?:pre|post)-(?:install|update|autoload-dump|create-project)$|^post-root-package-install$|^(?:pre|post)-package-(?:install|update|uninstall)$|^(?:pre|post)-autoload-dump$/;

export interface ComposerRuns {
  findings: AgentFinding[];
  /** Repository PHP files composer runs by itself: event scripts (`@php x.php`) and `autoload.files`. */
  runs: { path: string; why: string }[];
}

/**
 * A composer.json's event scripts (run by `composer install` / `update` with nobody choosing them): each
 * command gets the shell checks as a build step; `@php x.php` / `php x.php` and `autoload.files` name
 * PHP files that run. `Class::method` callbacks and `@composer` / `@putenv` lines run Composer's own code.
 */
export function composerRuns(path: string, text: string): ComposerRuns {
  const findings: AgentFinding[] = [];
  const runs: ComposerRuns['runs'] = [];
  let manifest: { scripts?: unknown; autoload?: { files?: unknown }; 'autoload-dev'?: { files?: unknown } };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return { findings, runs };
  }
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
  const scripts = typeof manifest?.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : {};
  const list = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const lineOf = (needle: string) => {
    const i = text.indexOf(needle);
    return i < 0 ? 1 : text.slice(0, i).split('\n').length;
  };
  const visit = (event: string, command: string, depth: number) => {
    const c = command.trim();
    const ref = /^@([\w:-]+)$/.exec(c);
    if (ref !== null && !/^(?:composer|php|putenv)$/.test(ref[1]!)) {
      if (depth < 4) for (const inner of list(scripts[ref[1]!])) visit(event, inner, depth + 1);
      return;
    }
    if (/^@(?:composer|putenv)\b/.test(c) || /^[\w\\]+::\w+$/.test(c)) return;
    const php = /^@?php\s+(?:-[\w-]+(?:[= ]\S+)?\s+)*["']?([\w./-]+\.php)\b/.exec(c)?.[1];
    if (php !== undefined && !php.includes('..')) runs.push({ path: `${dir}${php.replace(/^\.\//, '')}`, why: `Composer ${event} script` });
    findings.push(...shellCommandFindings(c.replace(/^@php\b/, 'php'), { file: path, line: lineOf(command), where: `Composer ${event} script (runs on composer install)`, automatic: true, buildStep: true }));
  };
  for (const [event, value] of Object.entries(scripts)) if (COMPOSER_EVENT.test(event)) for (const command of list(value)) visit(event, command, 0);
  for (const file of [...list(manifest?.autoload?.files), ...list(manifest?.['autoload-dev']?.files)]) {
    if (!file.includes('..')) runs.push({ path: `${dir}${file.replace(/^\.\//, '')}`, why: 'Composer autoload file (loaded by every script that loads vendor/autoload.php)' });
  }
  return { findings, runs };
}
