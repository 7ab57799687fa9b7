import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import type { ScriptLanguage } from '../skills/script-fact.js';
import { lineLocator } from '../text/line-locator.js';

// `a.startsWith(b)` / `a.startswith(b)` with a non-literal prefix.
const JS_PREFIX_TEST = /([\w$.]+)\.startsWith\(\s*([^()'"`,]+?)\s*\)/g;
const PY_PREFIX_TEST = /([\w.]+)\.startswith\(\s*([^()'",]+?)\s*\)/g;
// Names of what a containment check compares: directories and paths.
const PATHISH = /dir|root|base|allow|path|folder|workspace|sandbox|home|cwd|target|resolved|abs|full|real/i;
// A separator appended to the prefix, or the prefix compared component-wise: the check is sound.
const SEPARATED = /\bsep\b|['"`]\/['"`]|\\\\|\/\s*$|\bcommonpath\b|\bis_relative_to\b|\brelative_to\b|\bpath\.relative\b/;
const JS_FS = /\b(?:readFile|readFileSync|writeFile|writeFileSync|appendFile|createReadStream|createWriteStream|readdir|unlink|rm|mkdir|copyFile|rename)\w*\s*\(/;
const PY_FS = /\bopen\s*\(|\.(?:read_text|read_bytes|write_text|write_bytes|unlink|rmdir|mkdir)\s*\(|\bshutil\.|\bos\.(?:remove|unlink|listdir|makedirs)\s*\(/;
// Names and values of web addresses: a URL or URI prefix test routes or checks an address, not a
// directory on disk (no sibling directory, no symbolic link to escape through).
const URLISH_WORD = /^(?:urls?|uris?|href|origin|endpoint|scheme)$/i;

/** True when a name has a word that names a web address (`resolvedUrl`, `base_uri`, `href`; not `originalPath`). */
function urlishName(name: string): boolean {
  return name.split(/[_$]+|(?<=[a-z0-9])(?=[A-Z])/).some((w) => URLISH_WORD.test(w));
}

/**
 * True when a value is itself a web address: `new URL(…)`, `….href`, a literal or template that starts
 * with a scheme or with an address-named value (`${CDN_URL}/v1/`). A path merely built from one
 * (`path.resolve(root, uri.slice(7))`) is still a path.
 */
function urlishValue(value: string): boolean {
  const v = value.trim();
  if (/^new\s+URL\s*\(|\.href\s*$|^[`'"][a-z][\w+.-]*:\/\//i.test(v)) return true;
  const lead = /^`\$\{\s*([\w$.]+)\s*\}/.exec(v)?.[1];
  return lead !== undefined && urlishName(lead.replace(/^.*\./, ''));
}

// Symbolic links resolved, or the path compared by component, somewhere in the file.
const RESOLVES_LINKS = /\brealpath\w*\b|\bcommonpath\b|\bis_relative_to\b|\bpath\.relative\s*\(|\bPath\([^)]*\)\.resolve\(\)\.relative_to\b/;

/** The text a name was last given by `name = …` (a declaration or an assignment), up to the end of the statement. */
function assignedValue(text: string, name: string): string {
  if (!/^[\w$]+$/.test(name)) return '';
  return new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\s*=(?!=)\\s*([^;]+)`).exec(text)?.[1]?.slice(0, 300) ?? '';
}

/**
 * Path containment done with a bare string-prefix test (`resolved.startsWith(allowedDir)`) with no
 * separator after the prefix and no symbolic-link resolution in the file: `/srv/data_evil` passes a
 * check for `/srv/data`, and a link inside the directory points anywhere (the "EscapeRoute" flaw of
 * the reference filesystem server, CVE-2025-53109/53110). Reported where the file also reads or
 * writes files, or exports the check for tools that do.
 */
export function prefixContainmentFindings(file: string, text: string, language: ScriptLanguage): AgentFinding[] {
  if (language !== 'javascript' && language !== 'typescript' && language !== 'python') return [];
  const py = language === 'python';
  if (RESOLVES_LINKS.test(text)) return [];
  if (!(py ? PY_FS : JS_FS).test(text) && !/\bexport\b|module\.exports|__all__/.test(text)) return [];
  const lineAt = lineLocator(text);
  for (const m of text.matchAll(py ? PY_PREFIX_TEST : JS_PREFIX_TEST)) {
    const [whole, subject = '', prefix = ''] = m;
    if (SEPARATED.test(prefix) || /^\d/.test(prefix.trim())) continue;
    if (!PATHISH.test(subject) && !PATHISH.test(prefix)) continue;
    // The prefix itself built with a separator on an earlier line (`const root = dir + path.sep`).
    const name = prefix.trim().replace(/^.*\./, '');
    const assigned = new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\s*=\\s*([^\\n;]+)`).exec(text)?.[1] ?? '';
    if (SEPARATED.test(assigned)) continue;
    // (Round s30, real false alarms.) A prefix that is a literal with no path separator (`'pkg.prompts.'`, a module
    // name) is no directory; a prefix tested for a trailing separator first (`p.endsWith("/") ? s.startsWith(p) : …`) has one.
    if (/^\s*(?:['"])[^'"/\\]*['"]\s*$/.test(assigned) || new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\s*\\.\\s*ends[Ww]ith\\(\\s*['"\x60](?:\\/|\\\\\\\\)['"\x60]\\s*\\)`).test(text.slice(Math.max(0, m.index - 200), m.index))) continue;
    // An address compared with an address (`resolvedUrl.startsWith(base)`, `uri.startsWith(resource.uri)`).
    const subjectName = subject.replace(/^.*\./, '');
    if (urlishName(subjectName) || urlishName(name) || urlishValue(assignedValue(text, subjectName)) || urlishValue(assignedValue(text, name))) continue;
    return [
      referenceFinding({
        category: 'vulnerability',
        severity: 'HIGH',
        title: 'path containment is a bare string-prefix test (no separator, no realpath): sibling directories and links escape it',
        file,
        line: lineAt(m.index),
        evidence: whole.slice(0, 200),
      }),
    ];
  }
  return [];
}
