/**
 * The header fields of Python core metadata (a wheel's `METADATA`, an sdist's `PKG-INFO`): RFC 822
 * style `Name: value` lines up to the first blank line, a line starting with whitespace continuing
 * the field before it. Field names are lowercased; a field given several times (`Classifier`) keeps
 * every value in order. The body after the blank line (the long description) is not read.
 */
export function parseCoreMetadata(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  let last: { name: string; values: string[] } | undefined;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (line.trim() === '') break;
    if (/^[ \t]/.test(line)) {
      // Older metadata writes continuation lines of a multi-line field as 8 spaces and `|`.
      if (last) last.values[last.values.length - 1] += `\n${line.replace(/^[ \t]+\|?/, '')}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const values = fields.get(name) ?? [];
    values.push(line.slice(colon + 1).trim());
    fields.set(name, values);
    last = { name, values };
  }
  return fields;
}
