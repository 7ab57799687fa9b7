function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The 1-based line where a lockfile records `name` at `version`: the first line naming the package
 * (as a whole name, any of `-`, `_`, `.` for a PyPI name) with the version on it or on one of the
 * next five lines (package-lock's `"version"`, yarn's `version "…"`, poetry's `version = "…"`).
 * Null when the text does not name it.
 */
export function lineOfPackage(lines: readonly string[], name: string, version: string | null): number | null {
  const namePattern = escapeRegExp(name).replace(/\\\.|-|_/g, '[-_.]');
  const nameRe = new RegExp(`(^|[^A-Za-z0-9._@/-]|/|node_modules/)${namePattern}($|[^A-Za-z0-9._-])`, 'i');
  // The entry itself first: package-lock's `"node_modules/<name>": {`, a `<name>@<version>` key
  // (pnpm, bun), a `<name>==<version>` pin; a manifest-like mention (an importer's dependency list)
  // only when the file has no such entry.
  if (version !== null) {
    const entryRe = new RegExp(`node_modules/${namePattern}"|(^|[\\s'"/])${namePattern}@${escapeRegExp(version)}($|[^A-Za-z0-9.+-])|^${namePattern}\\s*===?\\s*${escapeRegExp(version)}`, 'i');
    const entry = lines.findIndex((line) => entryRe.test(line));
    if (entry !== -1) return entry + 1;
  }
  let first: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (!nameRe.test(lines[i]!)) continue;
    first ??= i + 1;
    if (version === null) return i + 1;
    for (let j = i; j < Math.min(lines.length, i + 6); j++) if (lines[j]!.includes(version)) return i + 1;
  }
  return first;
}
