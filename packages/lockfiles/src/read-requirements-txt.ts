import type { LockfileCollector } from './lockfile-collector.js';
import { lockfileMalformed } from './lockfile-errors.js';
import { normalizePypiName } from './pypi-name.js';
import { SKIP_REASONS, type SkipReason } from './skip-reasons.js';

/** Options that configure pip for the whole file and name no package. */
const GLOBAL_OPTIONS = new Set([
  '-i',
  '--index-url',
  '--extra-index-url',
  '--no-index',
  '-f',
  '--find-links',
  '--pre',
  '--prefer-binary',
  '--only-binary',
  '--no-binary',
  '--require-hashes',
  '--trusted-host',
  '--use-feature',
]);
const INCLUDE_OPTIONS = new Set(['-r', '--requirement', '-c', '--constraint']);
const EDITABLE_OPTIONS = new Set(['-e', '--editable']);

const NAME = '[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?';
const REQUIREMENT_RE = new RegExp(`^(${NAME})\\s*(?:\\[[^\\]]*\\])?\\s*([^;]*?)\\s*(?:;.*)?$`);
const DIRECT_REFERENCE_RE = new RegExp(`^(${NAME})\\s*(?:\\[[^\\]]*\\])?\\s*@\\s*(\\S.*)$`);
const PINNED_RE = /^\(?\s*===?\s*([^\s,;()*]+)\s*\)?$/;
/** A PEP 440 specifier list (`>=1,<2`, `==1.*`, `(==1.0)`), or nothing. */
const CLAUSE = '(?:~=|===|==|!=|<=|>=|<|>)\\s*[A-Za-z0-9.*+!_-]+';
const SPECIFIERS_RE = new RegExp(`^(?:\\(\\s*)?(?:${CLAUSE}(?:\\s*,\\s*${CLAUSE})*)?(?:\\s*\\))?$`);

interface Requirement {
  line: number;
  name: string;
  version: string;
  via: string[];
}

/**
 * requirements.txt as pip reads it: `\` continues a line, `#` after whitespace starts a comment,
 * per-requirement options (`--hash=…`) follow the requirement. Only exact pins (`==`, `===`) are
 * read; every other line that names a package is skipped with its reason. Lines are direct
 * dependencies, unless the file carries pip-compile's `# via` annotations: then a package is direct
 * when its annotation names an input file (`-r requirements.in`) or a project (`app (pyproject.toml)`),
 * and transitive when only other packages pulled it in.
 */
export function readRequirementsTxt(path: string, content: string, collector: LockfileCollector): null {
  const physical = content.split(/\r?\n/);
  const requirements: Requirement[] = [];
  let annotated = false;
  let viaOpen = false;
  // The requirement the following `# via` comment lines annotate: only the line just before them.
  let current: Requirement | null = null;
  for (let i = 0; i < physical.length; i++) {
    const startLine = i + 1;
    let text = physical[i]!;
    const comment = /^\s*#(.*)$/.exec(text);
    if (comment) {
      const via = /^\s*via\b\s*(.*)$/.exec(comment[1]!);
      if (via && current) {
        annotated = true;
        viaOpen = true;
        current.via.push(...via[1]!.split(',').map((v) => v.trim()).filter(Boolean));
      } else if (viaOpen && current && /^\s{2,}\S/.test(comment[1]!)) {
        current.via.push(comment[1]!.trim());
      } else {
        viaOpen = false;
      }
      continue;
    }
    viaOpen = false;
    while (/\\$/.test(text) && i + 1 < physical.length) text = text.slice(0, -1) + physical[++i]!;
    if (text.endsWith('\\')) text = text.slice(0, -1);
    const line = text.replace(/(^|\s+)#.*$/, '').trim();
    if (line === '') continue;
    const found = readLine(path, startLine, line);
    current = null;
    if (found === null) continue;
    if ('reason' in found) collector.skip(found.name, startLine, found.reason);
    else {
      current = { line: startLine, ...found, via: [] };
      requirements.push(current);
    }
  }
  for (const requirement of requirements) {
    const direct = !annotated || requirement.via.length === 0 || requirement.via.some((v) => /^-r\s/.test(v) || /\S\s+\(.+\)$/.test(v));
    collector.add({ ecosystem: 'pypi', name: requirement.name, version: requirement.version, direct, dev: null, line: requirement.line });
  }
  return null;
}

type LineResult = { name: string; version: string } | { name: string | null; reason: SkipReason } | null;

function readLine(path: string, line: number, text: string): LineResult {
  if (text.startsWith('-')) {
    const option = /^(--?[A-Za-z][\w-]*)(?:[=\s]\s*(.*))?$/.exec(text);
    const name = option?.[1] ?? text;
    if (INCLUDE_OPTIONS.has(name)) return { name: null, reason: SKIP_REASONS.include };
    if (EDITABLE_OPTIONS.has(name)) return { name: eggName(option?.[2] ?? ''), reason: SKIP_REASONS.editable };
    if (GLOBAL_OPTIONS.has(name)) return null;
    throw lockfileMalformed(path, line, `unknown option ${name}`);
  }
  // Per-requirement options (`--hash=sha256:…`, `--config-settings …`) follow the requirement.
  const requirement = text.split(/\s+--?[A-Za-z]/)[0]!.trim();
  const reference = DIRECT_REFERENCE_RE.exec(requirement);
  if (reference) return { name: normalizePypiName(reference[1]!), reason: locationReason(reference[2]!) ?? SKIP_REASONS.url };
  const location = locationReason(requirement);
  if (location) return { name: eggName(requirement), reason: location };
  const parsed = REQUIREMENT_RE.exec(requirement);
  if (!parsed || !SPECIFIERS_RE.test(parsed[2]!)) throw lockfileMalformed(path, line, `${JSON.stringify(requirement)} is not a requirement`);
  const name = normalizePypiName(parsed[1]!);
  const pinned = PINNED_RE.exec(parsed[2]!);
  if (!pinned) return { name, reason: SKIP_REASONS.unpinned };
  return { name, version: pinned[1]! };
}

/** A requirement that is a location rather than a name: a VCS URL, another URL, a local path or archive. */
function locationReason(text: string): SkipReason | null {
  if (/^(git|hg|svn|bzr)\+/i.test(text)) return SKIP_REASONS.git;
  if (/^https?:\/\//i.test(text)) return SKIP_REASONS.url;
  if (/^file:/i.test(text) || /^(\.{1,2}|~)?[/\\]/.test(text) || text === '.' || /\.(whl|tar\.gz|tgz|zip|tar\.bz2)$/i.test(text)) return SKIP_REASONS.localPath;
  return null;
}

/** `…#egg=name`: how a URL or editable requirement names its package. */
function eggName(text: string): string | null {
  const egg = /[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(text);
  return egg ? normalizePypiName(egg[1]!) : null;
}
