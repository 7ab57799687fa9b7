/** The YAML front matter of a SKILL.md, read for the keys a skill declares (name, description, allowed-tools, …). */
export interface SkillFrontMatter {
  /** Scalar keys as text; list keys joined with ", ". */
  fields: Map<string, string>;
  /** Lines the front matter spans in the file (0 when there is none). */
  lineCount: number;
}

/**
 * Reads the flat YAML subset skills use: `key: value`, quoted values, `>`/`|` block scalars and
 * `- item` lists. Nested mappings are kept as their raw text. A missing or unterminated front
 * matter gives no fields.
 */
export function parseSkillFrontMatter(text: string): SkillFrontMatter {
  const fields = new Map<string, string>();
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  if ((lines[0] ?? '').trim() !== '---') return { fields, lineCount: 0 };
  const end = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
  if (end < 0) return { fields, lineCount: 0 };
  let key: string | null = null;
  let parts: string[] = [];
  const flush = () => {
    if (key !== null) fields.set(key, parts.join(key === 'allowed-tools' || parts.length > 1 ? ', ' : ' ').trim());
  };
  for (const raw of lines.slice(1, end)) {
    const top = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(raw);
    if (top) {
      flush();
      key = (top[1] as string).toLowerCase();
      const value = (top[2] as string).trim();
      parts = value === '' || value === '>' || value === '|' || value === '>-' || value === '|-' ? [] : [unquote(value)];
      continue;
    }
    if (key === null) continue;
    const item = /^\s+-\s+(.*)$/.exec(raw);
    if (item) parts.push(unquote((item[1] as string).trim()));
    else if (raw.trim() !== '') parts.push(raw.trim());
  }
  flush();
  return { fields, lineCount: end + 1 };
}

function unquote(value: string): string {
  const m = /^(['"])([\s\S]*)\1$/.exec(value);
  if (m) return m[2] as string;
  const list = /^\[(.*)\]$/.exec(value);
  if (list) return (list[1] as string).split(',').map((v) => unquote(v.trim())).join(', ');
  return value;
}
