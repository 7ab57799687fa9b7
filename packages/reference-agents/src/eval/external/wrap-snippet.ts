import { GUARDDOG_SETUP_PY_RULES } from './technique-families.js';

export type Ecosystem = 'npm' | 'pypi' | 'go' | 'rubygems';

/**
 * The package a single-file public sample (a GuardDog rule test snippet or YARA test file) is
 * wrapped in, so the packages agent reads it as it reads a real package:
 *
 * - npm: `package.json` (`name`, `version`, `main: index.js`) and the code as `index.js`. A
 *   `package.json` sample (`.json`) is the manifest itself.
 * - PyPI: an sdist. Install-time rules (GuardDog's `code-execution`, `cmd-overwrite`, …) put the
 *   code in `setup.py`; every other snippet goes in `<name>/__init__.py` (runs on import) next to
 *   a plain `setup.py` that names the package.
 * - Go (`go.mod`, `main.go`) and RubyGems (`<name>.gemspec`, `lib/<name>.rb`): laid out as such
 *   packages are, although the agent reads neither (the samples are reported out of scope).
 */
export function wrapSnippet(options: { ecosystem: Ecosystem; name: string; rule: string; code: string; ext: string }): Record<string, string> {
  const { ecosystem, name, rule, code, ext } = options;
  const pyName = name.replace(/-/g, '_');
  switch (ecosystem) {
    case 'npm':
      if (ext === '.json') return { 'package.json': code };
      return { 'package.json': `${JSON.stringify({ name, version: '1.0.0', main: 'index.js' }, null, 2)}\n`, 'index.js': code };
    case 'pypi':
      if (GUARDDOG_SETUP_PY_RULES.has(rule)) return { 'setup.py': code };
      return {
        'setup.py': `from setuptools import setup\n\nsetup(name="${name}", version="1.0.0", packages=["${pyName}"])\n`,
        [`${pyName}/__init__.py`]: code,
      };
    case 'go':
      return { 'go.mod': `module example.com/${name}\n\ngo 1.22\n`, 'main.go': code };
    case 'rubygems':
      return {
        [`${name}.gemspec`]: `Gem::Specification.new do |s|\n  s.name = "${name}"\n  s.version = "1.0.0"\n  s.files = ["lib/${name}.rb"]\nend\n`,
        [`lib/${name}.rb`]: code,
      };
  }
}

/**
 * A GuardDog `package.json` rule test annotates one `"<script>": "<command>"` line inside a JSON
 * file that is not valid JSON (comments, trailing commas). The sample is a manifest with that one
 * script, which is what the rule looks at.
 */
export function manifestForScriptLine(name: string, line: string): string | null {
  const m = /^\s*"([^"]+)"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(line);
  if (m === null) return null;
  const command = JSON.parse(m[2]!) as string;
  return `${JSON.stringify({ name, version: '1.0.0', scripts: { [m[1]!]: command } }, null, 2)}\n`;
}
