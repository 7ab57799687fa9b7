import { parseDocument } from 'yaml';
import { parseJs, walkJs, type JsNode } from '../skills/js-source.js';

/**
 * Files whose commands an ecosystem runs by itself, with nobody calling them: node-gyp's command
 * expansions and build actions in `binding.gyp` (npm runs `node-gyp rebuild` on install when the
 * file exists), direnv's `.envrc` (run on entering the directory), a Dockerfile's `RUN`, `ENTRYPOINT`
 * and `CMD` (a dev container builds and starts it on "Reopen in Container"; an MCP host starts it),
 * and an MCP server's declared start command — `smithery.yaml` `startCommand`, a Claude Desktop
 * extension's `manifest.json` `server.mcp_config`, an MCP registry `server.json` package's runtime and
 * package arguments. Each is read into plain command lines, which the agents' existing shell command
 * checks judge; what a command runs from the artifact (`node tools/gen.js`) is returned as a path.
 */
export type SurfaceKind = 'gyp' | 'envrc' | 'dockerfile' | 'smithery' | 'extension-manifest' | 'registry-server' | 'cursor-hooks';

export interface SurfaceCommand {
  command: string;
  line: number;
}

export interface SelfRunSurface {
  kind: SurfaceKind;
  /** What runs the commands, for finding titles. */
  where: string;
  commands: SurfaceCommand[];
}

// Bounds: a surface file is small; a generated one is not read past this.
const MAX_SURFACE_BYTES = 256 * 1024;
const MAX_COMMANDS = 200;

export function selfRunSurfaceKind(path: string): SurfaceKind | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (/\.gypi?$/.test(base)) return 'gyp';
  if (base === '.envrc') return 'envrc';
  if (/^(Dockerfile|Containerfile)([.-][\w.-]+)?$|\.[Dd]ockerfile$/.test(base)) return 'dockerfile';
  if (/^smithery\.ya?ml$/.test(base)) return 'smithery';
  if (/(^|\/)\.cursor\/hooks\.json$/.test(path)) return 'cursor-hooks';
  if (base === 'manifest.json') return 'extension-manifest';
  if (base === 'server.json') return 'registry-server';
  return null;
}

const WHERE: Readonly<Record<SurfaceKind, string>> = {
  gyp: 'node-gyp build (binding.gyp)',
  envrc: 'direnv .envrc',
  dockerfile: 'Dockerfile',
  smithery: 'smithery.yaml start command',
  'extension-manifest': 'desktop extension manifest server command',
  'registry-server': 'MCP registry server.json package command',
  'cursor-hooks': 'Cursor agent hook',
};

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The commands a surface file runs, or null when the file is not one (a `manifest.json` of a web app). */
export function selfRunSurface(text: string, kind: SurfaceKind): SelfRunSurface | null {
  if (text.length > MAX_SURFACE_BYTES) text = text.slice(0, MAX_SURFACE_BYTES);
  let commands: SurfaceCommand[] | null;
  switch (kind) {
    case 'gyp':
      commands = gypCommands(text);
      break;
    case 'envrc':
      commands = shellFileCommands(text);
      break;
    case 'dockerfile':
      commands = dockerfileCommands(text);
      break;
    case 'smithery':
      commands = smitheryCommands(text);
      break;
    case 'extension-manifest':
      commands = extensionManifestCommands(text);
      break;
    case 'registry-server':
      commands = registryServerCommands(text);
      break;
    case 'cursor-hooks':
      commands = cursorHookCommands(text);
      break;
  }
  if (commands === null) return null;
  return { kind, where: WHERE[kind], commands: commands.slice(0, MAX_COMMANDS) };
}

/** A gyp string's escapes (`\"` inside a double-quoted string) undone, as Python reads the literal. */
function unescape(value: string): string {
  return value.replace(/\\(["'\\])/g, '$1');
}

/**
 * gyp: `<!(cmd)` and `<!@(cmd)` expand to a command's output when node-gyp configures the addon;
 * `<!pymod_do_main(module args)` runs a Python module; every `'action': [...]` list (actions, rules)
 * is a command make runs during the build. Comments (`#`) are skipped.
 */
export function gypCommands(text: string): SurfaceCommand[] {
  const out: SurfaceCommand[] = [];
  const code = text.replace(/(^|[^'"\\])#[^\n]*/g, (m, pre: string) => pre + ' '.repeat(m.length - pre.length));
  // `<!(…)` up to its matching parenthesis (the command's own parentheses counted).
  for (const m of code.matchAll(/<!@?\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < code.length && depth > 0 && i - m.index < 8000; i++) depth += code[i] === '(' ? 1 : code[i] === ')' ? -1 : 0;
    if (depth === 0) out.push({ command: unescape(code.slice(m.index + m[0].length, i - 1).trim()), line: lineAt(code, m.index) });
  }
  for (const m of code.matchAll(/<!@?pymod_do_main\(([^)]*)\)/g)) out.push({ command: `python -m ${m[1]!.trim()}`, line: lineAt(code, m.index) });
  for (const m of code.matchAll(/['"]action['"]\s*:\s*\[((?:[^\]'"]|'[^']*'|"[^"]*")*)\]/g)) {
    const parts = [...m[1]!.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((p) => unescape(p[1] ?? p[2] ?? ''));
    if (parts.length > 0) out.push(...argvCommands(parts, lineAt(code, m.index)));
  }
  return out;
}

/**
 * An argument vector as command lines: the whole (`sh -c env | curl …`) and, when it is a shell given
 * `-c`, the script the shell runs on its own, so checks anchored at a command's start see it.
 */
function argvCommands(parts: readonly string[], line: number): SurfaceCommand[] {
  const out: SurfaceCommand[] = [{ command: parts.join(' '), line }];
  if (parts.length > 2 && /^(?:[\w./-]*\/)?(?:ba|z|da|k)?sh$/.test(parts[0]!) && parts[1] === '-c') out.push({ command: parts.slice(2).join(' '), line });
  return out;
}

/** A shell file's command lines (comments and blank lines skipped, over-long lines dropped). */
function shellFileCommands(text: string): SurfaceCommand[] {
  const out: SurfaceCommand[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.length <= 4000 && !/^\s*#/.test(line) && line.trim() !== '') out.push({ command: line, line: i + 1 });
  });
  return out;
}

/** An exec-form array (`["sh", "-c", "…"]`) as one command line, or the shell form as written. */
function execForm(rest: string, line: number): SurfaceCommand[] {
  const trimmed = rest.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parts = JSON.parse(trimmed) as unknown;
      if (Array.isArray(parts) && parts.every((p) => typeof p === 'string')) return argvCommands(parts as string[], line);
    } catch {
      // Not JSON: the shell form.
    }
  }
  return [{ command: trimmed, line }];
}

/** A Dockerfile's `RUN`, `ENTRYPOINT` and `CMD` instructions, continued lines joined, heredoc bodies included. */
export function dockerfileCommands(text: string): SurfaceCommand[] {
  const out: SurfaceCommand[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*(RUN|ENTRYPOINT|CMD)\s+(.*)$/i.exec(lines[i]!);
    if (m === null) continue;
    const start = i;
    let body = m[2]!;
    while (/\\\s*$/.test(body) && i + 1 < lines.length) body = `${body.replace(/\\\s*$/, ' ')}${lines[++i]!.replace(/^\s*#.*$/, '')}`;
    // `RUN <<EOF` … `EOF`: the heredoc's lines are the script.
    const heredoc = /<<-?\s*["']?(\w+)["']?/.exec(body);
    if (heredoc !== null && m[1]!.toUpperCase() === 'RUN') {
      const end = lines.findIndex((l, j) => j > i && l.trim() === heredoc[1]);
      const stop = end === -1 ? Math.min(lines.length, i + 200) : end;
      for (let j = i + 1; j < stop; j++) if (lines[j]!.trim() !== '' && !/^\s*#/.test(lines[j]!)) out.push({ command: lines[j]!, line: j + 1 });
      i = stop;
      continue;
    }
    for (const c of execForm(body.replace(/^(?:--[\w-]+=\S+\s+)+/, ''), start + 1)) if (c.command.length <= 8000) out.push(c);
  }
  return out;
}

/** The string literals of a small piece of JavaScript, in order. */
function stringLiterals(code: string): string[] {
  return [...code.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)].map((m) => (m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(['"`\\])/g, '$1'));
}

function lineOf(text: string, needle: string): number {
  const i = needle === '' ? -1 : text.indexOf(needle);
  return i === -1 ? 1 : lineAt(text, i);
}

/**
 * smithery.yaml: `startCommand.commandFunction` is JavaScript returning `{ command, args, env }`;
 * its string literals, in order, are the command line (`node dist/index.js`, or `sh -c "…"`).
 * A `startCommand` with `command`/`args` keys is read the same way. Null when there is no start command.
 */
function smitheryCommands(text: string): SurfaceCommand[] | null {
  let doc: unknown;
  try {
    doc = parseDocument(text, { uniqueKeys: false }).toJS();
  } catch {
    return null;
  }
  const start = (doc as { startCommand?: Record<string, unknown> } | null)?.startCommand;
  if (typeof start !== 'object' || start === null) return null;
  const out: SurfaceCommand[] = [];
  if (typeof start.commandFunction === 'string') {
    // What the function returns: the literals of `command:` and `args:` (the env block's values are not a command).
    const evaluated = returnedArgv(start.commandFunction);
    const fn = start.commandFunction.replace(/\benv\s*:\s*\{[^}]*\}/g, '');
    const literals = stringLiterals(fn).filter((s) => s.trim() !== '');
    if (evaluated !== null) out.push(...argvCommands(evaluated, lineOf(text, 'commandFunction')));
    else if (literals.length > 0) out.push(...argvCommands(literals, lineOf(text, 'commandFunction')));
  }
  const argv = [start.command, ...(Array.isArray(start.args) ? start.args : [])].filter((a): a is string => typeof a === 'string');
  if (argv.length > 0) out.push(...argvCommands(argv, lineOf(text, 'startCommand')));
  return out;
}

/**
 * The argument vector a `commandFunction` returns (`{ command, args }`), its strings built as the function
 * builds them: `+` and template chains, `[…].join(sep)`, names bound in the function. A value the function
 * takes from the user's configuration (`config.apiToken`) stands as `$API_TOKEN`, so a command that puts it
 * in a URL reads as one that sends a secret. Null when the function does not parse or returns no command.
 */
function returnedArgv(fn: string): string[] | null {
  if (fn.length > 16 * 1024) return null;
  let root: JsNode;
  try {
    root = parseJs(`(${fn})`, false);
  } catch {
    return null;
  }
  const bound = new Map<string, JsNode>();
  let returned: JsNode | null = null;
  walkJs(root, (node) => {
    if (node.type === 'VariableDeclarator' && (node.id as JsNode).type === 'Identifier' && node.init) bound.set((node.id as JsNode).name as string, node.init as JsNode);
    if (node.type === 'ObjectExpression' && returned === null && (node.properties as JsNode[]).some((p) => p.type === 'Property' && ((p.key as JsNode).name ?? (p.key as JsNode).value) === 'command')) returned = node;
  });
  if (returned === null) return null;
  const value = (node: JsNode | null | undefined, depth: number): string => {
    if (!node || depth > 12) return '*';
    switch (node.type) {
      case 'Literal':
        return typeof node.value === 'string' || typeof node.value === 'number' || typeof node.value === 'boolean' ? String(node.value) : '*';
      case 'TemplateLiteral': {
        const quasis = node.quasis as JsNode[];
        const exprs = node.expressions as JsNode[];
        return quasis.map((q, i) => String((q.value as { cooked?: string }).cooked ?? '') + (i < exprs.length ? value(exprs[i], depth + 1) : '')).join('');
      }
      case 'BinaryExpression':
        return node.operator === '+' ? value(node.left as JsNode, depth + 1) + value(node.right as JsNode, depth + 1) : '*';
      case 'Identifier': {
        const init = bound.get(node.name as string);
        return init === undefined ? '*' : value(init, depth + 1);
      }
      case 'MemberExpression': {
        const key = (node.property as JsNode).name ?? (node.property as JsNode).value;
        return typeof key === 'string' ? `$${key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}` : '*';
      }
      case 'CallExpression': {
        const callee = node.callee as JsNode;
        const list = callee.type === 'MemberExpression' && (callee.property as JsNode).name === 'join' ? (callee.object as JsNode) : null;
        const array = list?.type === 'Identifier' ? bound.get(list.name as string) : list;
        if (array?.type === 'ArrayExpression') {
          const sep = (node.arguments as JsNode[]).length > 0 ? value((node.arguments as JsNode[])[0], depth + 1) : ',';
          return (array.elements as JsNode[]).map((e) => value(e, depth + 1)).join(sep);
        }
        return '*';
      }
      default:
        return '*';
    }
  };
  const props = new Map(((returned as JsNode).properties as JsNode[]).filter((p) => p.type === 'Property').map((p) => [String((p.key as JsNode).name ?? (p.key as JsNode).value), p.value as JsNode] as const));
  const command = value(props.get('command'), 0);
  const argsNode = props.get('args');
  const args = argsNode?.type === 'ArrayExpression' ? (argsNode.elements as JsNode[]).map((e) => value(e, 0)) : [];
  return command === '*' ? null : [command, ...args];
}

/**
 * A Claude Desktop extension's `manifest.json` (`.dxt` / `.mcpb`): `server.mcp_config` is the
 * command the host runs to start the server (`${__dirname}` is the extension's directory), on its own
 * and per platform (`platform_overrides`). Null for a manifest without a `server` (a web app's).
 */
function extensionManifestCommands(text: string): SurfaceCommand[] | null {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  const server = manifest?.server as { mcp_config?: Record<string, unknown> } | undefined;
  if (typeof server !== 'object' || server === null || typeof server.mcp_config !== 'object' || server.mcp_config === null) return null;
  const configs = [server.mcp_config, ...Object.values((server.mcp_config.platform_overrides as Record<string, Record<string, unknown>> | undefined) ?? {})];
  const out: SurfaceCommand[] = [];
  for (const config of configs) {
    if (typeof config !== 'object' || config === null) continue;
    const argv = [config.command, ...(Array.isArray(config.args) ? config.args : [])].filter((a): a is string => typeof a === 'string');
    if (argv.length > 0) out.push(...argvCommands(argv.map((a) => a.replace(/\$\{__dirname\}\/?/g, '')), lineOf(text, typeof config.command === 'string' ? config.command : '"mcp_config"')));
  }
  return out;
}

/**
 * An MCP registry `server.json`: each package is started as its `runtimeHint` (`npx`, `uvx`,
 * `docker`) with its runtime arguments, the package, and its package arguments. Null without packages.
 */
function registryServerCommands(text: string): SurfaceCommand[] | null {
  let server: { packages?: unknown };
  try {
    server = JSON.parse(text) as { packages?: unknown };
  } catch {
    return null;
  }
  if (!Array.isArray(server?.packages)) return null;
  const argText = (args: unknown): string[] =>
    Array.isArray(args)
      ? args.flatMap((a: { type?: unknown; name?: unknown; value?: unknown; default?: unknown }) => {
          const value = typeof a?.value === 'string' ? a.value : typeof a?.default === 'string' ? a.default : '';
          return [typeof a?.name === 'string' ? a.name : '', value].filter((s) => s !== '');
        })
      : [];
  const out: SurfaceCommand[] = [];
  for (const pkg of server.packages as Record<string, unknown>[]) {
    if (typeof pkg !== 'object' || pkg === null) continue;
    const argv = [typeof pkg.runtimeHint === 'string' ? pkg.runtimeHint : '', ...argText(pkg.runtimeArguments ?? pkg.runtime_arguments), typeof pkg.identifier === 'string' ? pkg.identifier : '', ...argText(pkg.packageArguments ?? pkg.package_arguments)].filter((s) => s !== '');
    if (argv.length > 0) out.push(...argvCommands(argv, lineOf(text, typeof pkg.identifier === 'string' ? pkg.identifier : '"packages"')));
  }
  return out;
}

/**
 * Cursor's project hooks (`.cursor/hooks.json`, `{ "version": 1, "hooks": { "<event>": [{ "command": "…" }] } }`):
 * commands the editor runs around the agent loop (before a prompt is sent, before a shell command, after
 * a file edit), with nobody choosing to run them. `type: "prompt"` entries ask the model and run nothing.
 */
function cursorHookCommands(text: string): SurfaceCommand[] | null {
  let config: { hooks?: unknown };
  try {
    config = JSON.parse(text) as { hooks?: unknown };
  } catch {
    return null;
  }
  if (typeof config?.hooks !== 'object' || config.hooks === null) return null;
  const out: SurfaceCommand[] = [];
  for (const entries of Object.values(config.hooks as Record<string, unknown>)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries as { command?: unknown; type?: unknown }[]) {
      if (typeof entry?.command === 'string' && entry.type !== 'prompt') out.push({ command: entry.command, line: lineOf(text, entry.command.slice(0, 40)) });
    }
  }
  return out;
}

/** Interpreters given code on their command line instead of a program file. */
const INLINE_SCRIPT = /^\s*(?:[\w./\\-]*[/\\])?(?:sh|bash|zsh|dash|cmd(?:\.exe)?|powershell(?:\.exe)?|pwsh|node|python[\d.]*|perl|ruby|deno|bun)\s+(?:[^\n]*\s)?(?:-c|-e|--eval|\/c|-Command|-EncodedCommand|-enc)\s/i;

/** True when a start command is an interpreter given inline code (`sh -c "…"`, `node -e "…"`), not a server program. */
export function isInlineScript(command: string): boolean {
  return INLINE_SCRIPT.test(command);
}

/** The `path:` of each plugin a `.yarnrc.yml` loads (every `yarn` command runs them), relative to the file. */
export function yarnPluginPaths(text: string): string[] {
  let doc: unknown;
  try {
    doc = parseDocument(text, { uniqueKeys: false }).toJS();
  } catch {
    return [];
  }
  const plugins = (doc as { plugins?: unknown } | null)?.plugins;
  if (!Array.isArray(plugins)) return [];
  return plugins.map((p: unknown) => (typeof p === 'string' ? p : typeof p === 'object' && p !== null ? (p as { path?: unknown }).path : null)).filter((p): p is string => typeof p === 'string' && !p.includes('..') && !/^[/~$]/.test(p)).map((p) => p.replace(/^\.\//, ''));
}
