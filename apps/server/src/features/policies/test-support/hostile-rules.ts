/**
 * Rules an attacker sent to freeze or kill the server (issue 30): each doubles a list (or a
 * string) `times` times with nested `cel.bind(lN, lN-1 + lN-1, …)`, seeded from a string split
 * into single characters. The first forms were 356–1,350 characters long and passed the old
 * estimate, which counted nodes only.
 */
export function doublingRule(times: number, seed = `"${'x'.repeat(300)}".split("")`, end = (last: string) => `size(${last}) > 0`): string {
  let expression = end(`l${times}`);
  for (let i = times; i >= 1; i--) expression = `cel.bind(l${i}, l${i - 1} + l${i - 1}, ${expression})`;
  return `cel.bind(l0, ${seed}, ${expression})`;
}

/** The attacker's shapes, as saved through `POST /v1/policies`. */
export const HOSTILE_RULES: readonly string[] = [
  doublingRule(12),
  doublingRule(13),
  doublingRule(14),
  doublingRule(13, 'pkg.name.split("")'),
  doublingRule(12, 'findings.map(f, f.title)'),
  doublingRule(13, 'pkg.name', (last) => `${last}.contains("y")`),
  doublingRule(5, 'pkg.name.split("")', (last) => `${last}.exists(a, ${last}.exists(b, a == b))`),
  'findings.map(a, findings.map(b, a.title + b.title)).exists(l, l.exists(s, s.contains("z")))',
  // A second attacker's: a time zone formats through Intl (~0.4 ms a call), and duration()'s
  // regular expression backtracks in cubic time on a long string.
  `"${'a'.repeat(1900)}".split("").all(x, timestamp(0).getHours("America/New_York") >= 0)`,
  `duration("${'1'.repeat(1900)}") == duration("1s")`,
  'duration(pkg.name) == duration("1s")',
  'cel.bind(s, findings.map(f, f.title).join(""), cel.bind(t, s + s + s + s, t.split("").exists(c, c == "z")))',
];
