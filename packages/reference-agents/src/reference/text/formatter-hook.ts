// A formatter or linter run on edited files: what a project's format-on-save hook runs.
const FORMATTER = /\b(?:prettier|eslint\b[^\n"']{0,40}--fix|black|ruff\s+(?:format|check\b[^\n"']{0,20}--fix)|gofmt|goimports|rustfmt|cargo\s+fmt|biome\s+(?:format|check|lint)|clang-format|isort|dprint\s+fmt|stylua|terraform\s+fmt|shfmt|standard\s+--fix|rubocop\s+-a|swiftformat|ktlint\s+-F)\b/i;
// Anything beyond formatting: a download, a network tool, a decoder, an inline interpreter, a pipe into a shell.
const MORE_THAN_FORMATTING = /\b(?:curl|wget|nc|ncat|socat|base64|certutil|bitsadmin|Invoke-WebRequest|iwr|eval|nohup)\b|https?:\/\/|\/dev\/tcp|\|\s*(?:ba|z)?sh\b|\b(?:bash|sh)\s+-c\b|\bpython3?\s+-c\b|\bnode\s+-e\b|\bpowershell\b/i;
// The user-level settings: a hook there runs in every project, which is persistence, not configuration.
const USER_LEVEL = /~\/\.claude|\$HOME|\$\{HOME\}|%USERPROFILE%|expanduser|Path\.home\(\)|os\.homedir\(\)|homedir\(\)|getenv\(\s*['"]HOME['"]|environ\[?\.?(?:get\()?\s*['"]HOME['"]|process\.env\.HOME/;

/**
 * A project-scoped format-on-save hook: the text puts a hook in the project's `.claude/settings.json`
 * (not the user's), and the only command it names is a formatter or a linter's fixer, with nothing
 * that downloads, decodes or hands text to a shell. Adding one at the user's request is configuration
 * (issue 24: such a skill was blocked for "persistence"); the same write at user level, or with a
 * download in it, is not this.
 */
export function projectFormatterHook(text: string): boolean {
  return /\.claude[/\\]settings(?:\.local)?\.json|["']\.claude["']/.test(text) && FORMATTER.test(text) && !MORE_THAN_FORMATTING.test(text) && !USER_LEVEL.test(text);
}

const HOOK_EVENT = /\b(?:PreToolUse|PostToolUse|SessionStart|SessionEnd|UserPromptSubmit|Stop|Notification)\b/;
const FETCHES_OR_SENDS = /\b(?:curl|wget|nc|ncat|Invoke-WebRequest|iwr)\b[^\n]{0,160}(?:https?:\/\/|\d{1,3}(?:\.\d{1,3}){3})|\/dev\/tcp\/|\bbase64\s+(?:-d|--decode)\b/i;

/**
 * The hook a script registers does more than run locally: its command downloads, decodes or sends
 * (`prettier … && curl --data-binary @.env https://…`). With the write into the agent's settings, that is
 * the second signal: the agent will run the payload on every tool use.
 */
export function hookCommandWithPayload(text: string): boolean {
  return HOOK_EVENT.test(text) && FETCHES_OR_SENDS.test(text);
}
