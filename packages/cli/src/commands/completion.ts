import type { Command, Option } from 'commander';
import { action, examples, type Kit } from '../command-kit.js';
import { choiceArg } from '../context.js';

interface Node {
  path: string;
  subcommands: string[];
  options: string[];
  description: string;
}

function longFlags(options: readonly Option[]): string[] {
  return options.filter((o) => !o.hidden).flatMap((o) => [o.long, o.short].filter((f): f is string => typeof f === 'string'));
}

/** Every command path with its subcommands (aliases included) and options, from the program itself. */
function tree(program: Command): Node[] {
  const nodes: Node[] = [];
  const visit = (command: Command, path: string) => {
    const subs = command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
    nodes.push({ path, subcommands: subs.flatMap((c) => [c.name(), ...c.aliases()]), options: [...longFlags(command.options), '--help'], description: command.description() });
    for (const sub of subs) for (const name of [sub.name(), ...sub.aliases()]) visit(sub, `${path} ${name}`);
  };
  visit(program, 'vigil');
  return nodes;
}

function shellCases(nodes: Node[], pick: (n: Node) => string[]): string {
  return nodes.map((n) => `    "${n.path}") echo "${pick(n).join(' ')}" ;;`).join('\n');
}

function posixFunctions(nodes: Node[], globals: string[]): string {
  return `_vigil_subs() {
  case "$1" in
${shellCases(nodes, (n) => n.subcommands)}
  esac
}
_vigil_words() {
  case "$1" in
${shellCases(nodes, (n) => [...n.subcommands, ...n.options, ...(n.path === 'vigil' ? [] : globals)])}
  esac
}`;
}

export function bashScript(program: Command): string {
  const nodes = tree(program);
  return `# vigil completion for bash: source <(vigil completion bash)
${posixFunctions(nodes, longFlags(program.options))}
_vigil() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="vigil" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    if [[ " $(_vigil_subs "$cmdpath") " == *" $w "* ]]; then cmdpath="$cmdpath $w"; fi
  done
  COMPREPLY=($(compgen -W "$(_vigil_words "$cmdpath")" -- "$cur"))
}
complete -o default -F _vigil vigil
`;
}

export function zshScript(program: Command): string {
  const nodes = tree(program);
  return `#compdef vigil
# vigil completion for zsh: source <(vigil completion zsh), after compinit
${posixFunctions(nodes, longFlags(program.options))}
_vigil() {
  local cmdpath="vigil" i w
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    [[ "$w" == -* ]] && continue
    if [[ " $(_vigil_subs "$cmdpath") " == *" $w "* ]]; then cmdpath="$cmdpath $w"; fi
  done
  compadd -- \${=$(_vigil_words "$cmdpath")}
  _files
}
compdef _vigil vigil
`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function fishScript(program: Command): string {
  const nodes = tree(program);
  const lines = ['# vigil completion for fish: vigil completion fish > ~/.config/fish/completions/vigil.fish', 'complete -c vigil -f'];
  for (const option of program.options.filter((o) => !o.hidden)) {
    const long = option.long?.replace(/^--/, '');
    if (long) lines.push(`complete -c vigil -l ${long}${option.required ? ' -r' : ''} -d ${fishQuote(option.description)}`);
  }
  for (const node of nodes) {
    const words = node.path.split(' ').slice(1);
    // The condition: exactly the words of this path typed so far, and no subcommand of it yet.
    const seen = words.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${words[words.length - 1]}${node.subcommands.length > 0 ? `; and not __fish_seen_subcommand_from ${node.subcommands.join(' ')}` : ''}`;
    const command = words.reduce<Command | undefined>((c, w) => c?.commands.find((s) => s.name() === w || s.aliases().includes(w)), program);
    for (const sub of command?.commands ?? []) {
      if ((sub as unknown as { _hidden?: boolean })._hidden) continue;
      lines.push(`complete -c vigil -n ${fishQuote(seen)} -a ${sub.name()} -d ${fishQuote(sub.description())}`);
    }
    if (words.length > 0 && command) {
      for (const option of command.options.filter((o) => !o.hidden)) {
        const long = option.long?.replace(/^--/, '');
        if (long) lines.push(`complete -c vigil -n ${fishQuote(`__fish_seen_subcommand_from ${words[words.length - 1]}`)} -l ${long}${option.required ? ' -r -F' : ''} -d ${fishQuote(option.description)}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

export function registerCompletion(program: Command, kit: Kit): void {
  examples(
    program
      .command('completion <shell>')
      .description('prints a shell completion script: bash, zsh or fish')
      .action(
        action(kit, async (ctx, shell: string) => {
          const which = choiceArg('shell', ['bash', 'zsh', 'fish'] as const)(shell);
          ctx.io.stdout(which === 'bash' ? bashScript(program) : which === 'zsh' ? zshScript(program) : fishScript(program));
        }),
      ),
    ['source <(vigil completion bash)        # in ~/.bashrc', 'source <(vigil completion zsh)         # in ~/.zshrc, after compinit', 'vigil completion fish > ~/.config/fish/completions/vigil.fish'],
  );
}
