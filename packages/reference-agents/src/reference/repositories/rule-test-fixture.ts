/**
 * (round s31b, in-sample for held-out set 32) Test cases of a detection rule: Semgrep (and the tools that
 * copied its convention: opengrep, semgrep-rules forks) keeps each rule `rules/x.yaml` beside a file of
 * the same name in the target language (`rules/x.js`, `rules/x.py`, a YAML target as `rules/x.yml` or
 * `rules/x.test.yaml`) whose lines are annotated `// ruleid: <id>` (must match), `// ok: <id>` (must not),
 * `todoruleid:` / `todook:` / `deepruleid:` / `deepok:`. `semgrep --test` parses those files and nothing runs
 * them: the malware-like code in them is a specimen of what the rule finds, as a test fixture is.
 *
 * A file counts when (1) one of its comment lines is such an annotation, and (2) a rule file of the same
 * basename sits in its directory (`.yaml` or `.yml`, not the file itself) that declares `rules:` and, among
 * its `id:`s, one the annotations name. Both are needed: an annotation alone, or a YAML file of another
 * rule, is not a rule's test case. What runs the file by itself (a manifest's install script, a hook, a
 * workflow) still reads it as code: the caller lowers only what the file's own content is found to hold.
 */

// `// ruleid: a, b`, `# ok: a`, `<!-- todoruleid: a -->`, `-- deepok: a`, `/* ruleid: a */`, `; ruleid: a`.
const ANNOTATION = /^[ \t]*(?:\/\/|#|--|<!--|\/\*|;|%|\*)[ \t]*(?:todo|deep)?(?:ruleid|ok)[ \t]*:[ \t]*([\w./:-]+(?:[ \t]*,[ \t]*[\w./:-]+)*)/gm;
const MAX_FIXTURE_BYTES = 512 * 1024;

/** The rule ids a file's annotation comments name (empty when it has none). */
export function annotatedRuleIds(text: string): Set<string> {
  const ids = new Set<string>();
  if (text.length > MAX_FIXTURE_BYTES || !/(?:ruleid|ok)[ \t]*:/.test(text)) return ids;
  for (const m of text.matchAll(ANNOTATION)) for (const id of (m[1] ?? '').split(',')) if (id.trim() !== '') ids.add(id.trim());
  return ids;
}

/** The ids a rule file declares (`rules:` then `- id: x` items), or an empty set for a file that is no rule file. */
export function declaredRuleIds(text: string): Set<string> {
  const ids = new Set<string>();
  if (!/^rules[ \t]*:/m.test(text)) return ids;
  for (const m of text.matchAll(/^[ \t]*-?[ \t]*id[ \t]*:[ \t]*["']?([\w./:-]+)/gm)) ids.add(m[1]!);
  return ids;
}

/** The paths a rule file beside `path` may have: same directory, same basename (a `.test` suffix off), `.yaml` or `.yml`. */
export function siblingRulePaths(path: string): string[] {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return [];
  const stem = base.slice(0, dot).replace(/\.test$/i, '');
  return [`${dir}${stem}.yaml`, `${dir}${stem}.yml`].filter((p) => p !== path);
}

/**
 * Whether the file at `path` is a rule's test case: annotated, with a rule file of its basename beside it that
 * declares one of the annotated ids. `readSibling` returns a sibling's text, or null when there is none.
 */
export async function ruleTestFixture(path: string, text: string, readSibling: (path: string) => Promise<string | null>): Promise<boolean> {
  const named = annotatedRuleIds(text);
  if (named.size === 0) return false;
  for (const sibling of siblingRulePaths(path)) {
    const rule = await readSibling(sibling);
    if (rule === null) continue;
    const declared = declaredRuleIds(rule);
    if ([...named].some((id) => declared.has(id))) return true;
  }
  return false;
}
