import type { McpTool } from './mcp-tool.js';
import { parameterDescriptions } from './parameter-descriptions.js';

/** What a tool says it touches, read from its name, description and parameter names. */
export interface DescriptionClaims {
  network: boolean;
  /**
   * The description says the tool works without the network ("runs fully offline", "no network
   * access", "nothing leaves your machine", "runs locally"), with no exception after it ("unless…",
   * "except…", "when…") and no other word that discloses the network.
   */
  offline: boolean;
  files: boolean;
  writes: boolean;
  deletes: boolean;
  processes: boolean;
  code: boolean;
  system: boolean;
  permissions: boolean;
  links: boolean;
  archives: boolean;
  templates: boolean;
  patterns: boolean;
  /** The words read, for evidence. */
  words: string;
}

// Each capability and the words a description uses when it discloses it. In the description a word
// is matched at the start of a word of the text ("upload" matches "uploads", "api" matches "APIs");
// in the tool's and its parameters' names see IDENTIFIER_ENDING.
const VOCABULARY: Record<Exclude<keyof DescriptionClaims, 'words' | 'offline'>, RegExp> = {
  network:
    /\b(?:https?|urls?|uris?|links?|web|website|internet|online|remote|api|apis|endpoints?|servers?|services?|cloud|fetch|download|upload|request|http|post|send|sends|sent|notify|notification|webhook|sync|email|e-mail|mail|sms|slack|discord|github|gitlab|jira|notion|search|crawl|scrap|browse|browser|connect|network|socket|ping|dns|host|domain|publish|share|subscribe|stream|proxy|oauth|token|account|report\w* to|third[- ]party|analytics|telemetry|track|monitor)/i,
  files: /\b(?:files?|paths?|dir|directory|directories|folders?|disk|documents?|images?|photos?|pdf|csv|logs?|backups?|save|saved|store|stores|storage|cache|persist|write|read|load|open|export|import|copy|move|archive|zip|tar|extract|filesystem|workspace|project|repo|repository|notes?|database|db|sqlite)/i,
  writes: /\b(?:write|writes|save|saves|store|stores|storage|create|creates|persist|cache|backup|log|logs|record|export|copy|copies|move|edit|update|modify|append|generate)/i,
  deletes: /\b(?:delete|deletes|remove|removes|erase|clean|purge|unlink|wipe|trash|uninstall)/i,
  processes: /\b(?:commands?|shell|exec|execute|run|runs|running|script|process|processes|spawn|terminal|cli|subprocess|worker|job|launch|kill|git|npm|docker|kubectl|build|compile|test|lint|install|ffmpeg|open)/i,
  // Parsing YAML or loading a saved object does not say that code runs: those are not listed.
  code: /\b(?:code|python|javascript|evaluat|eval|expression|calculat|formula|math|script|repl|notebook|plugin|module|interpret)/i,
  system: /\b(?:system|os|host|hardware|cpu|memory|ram|disk|mount|process|processes|users?|accounts?|groups?|network|interfaces?|environment|env|config|configuration|logs?|diagnos|status|health|monitor|info|kernel|device|uptime|load)/i,
  permissions: /\b(?:permissions?|chmod|chown|owner|mode|access|executable|privileges?)/i,
  links: /\b(?:links?|symlinks?|symbolic|shortcut|alias)/i,
  archives: /\b(?:archives?|zip|unzip|tar|extract|decompress|unpack|bundle)/i,
  templates: /\b(?:templates?|render|jinja|mustache|handlebars|mako|format string)/i,
  patterns: /\b(?:regex|regexp|regular expression|patterns?|match|grep)/i,
};

// A name is chosen by the server's author, so a prefix match would let any name "declare" a
// capability: `sentences` begins with "sent", `apiary` with "api", `weburl_ignore` with "web".
// In names a vocabulary word must be the whole word, or the word with an inflection.
const IDENTIFIER_ENDING = '(?:s|es|e|ed|d|ing|er|ers|ion|ions|or|ors|tic|tics|able)?\\b';
const IDENTIFIER_VOCABULARY = Object.fromEntries(
  Object.entries(VOCABULARY).map(([key, pattern]) => [key, new RegExp(pattern.source + IDENTIFIER_ENDING, 'i')]),
) as Record<keyof typeof VOCABULARY, RegExp>;

function splitIdentifier(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:/]+/g, ' ')
    .toLowerCase();
}

function schemaKeys(value: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 6 || out.length > 200) return out;
  if (Array.isArray(value)) {
    for (const v of value) {
      if (typeof v === 'string') out.push(v.split(/[:= ]/)[0] ?? '');
      else schemaKeys(v, depth + 1, out);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      if (typeof v === 'string' && k === 'description') out.push(v);
      else schemaKeys(v, depth + 1, out);
    }
  } else if (typeof value === 'string') out.push(value);
  return out;
}

// A description's promise that the tool stays off the network. The phrases are taken out of the text
// before its network words are read ("no network access" must not read as disclosing the network).
const OFFLINE_CLAIM =
  /\b(?:(?:runs?|works?|operates?|processe[sd]|happens?|computed?|done|executes?)\s+(?:\w+\s+){0,2}?(?:entirely\s+|fully\s+|completely\s+|100%\s+|only\s+)?(?:offline|locally|on[- ]device|on\s+your\s+(?:machine|computer|device))|(?:fully|completely|entirely|100%)\s+(?:offline|local)|offline(?:[- ]only)?|local[- ]only|no\s+(?:network|internet)(?:\s+(?:access|connection|calls?|requests?))?(?:\s+(?:is\s+)?(?:needed|required|used|made))?|without\s+(?:any\s+)?(?:network|internet)(?:\s+(?:access|connection))?|(?:never|does\s+not|doesn['’]t|won['’]t)\s+(?:leave|leaves|send|sends|upload|uploads|contact|call)\s+(?:your|the|any)?\s*(?:machine|computer|device|data|text|anything|network|servers?|internet)?|nothing\s+(?:is\s+sent|leaves|is\s+uploaded)|(?:text|data|input|files?)\s+never\s+leaves?\s+(?:your|the)\s+(?:machine|computer|device))/gi;
// What a description says when it does use the network (a weaker word such as "tokens" or "account" is not this).
const NETWORK_ACTION = /\b(?:https?|urls?|web|website|internet|online|remote|apis?\b|endpoints?|cloud|fetch|download|upload|request|post\b|send|sends|sent|notify|webhook|sync|e-?mail|crawl|scrap|browse|connect|publish|subscribe|proxy|report\w* to|third[- ]party|analytics|telemetry)/i;
const OFFLINE_EXCEPTION = /^[^.]{0,60}?\b(?:unless|except|but|when|if|until|apart\s+from|other\s+than)\b/i;

/** The capabilities a tool discloses to the model and the user. */
export function descriptionClaims(tool: McpTool): DescriptionClaims {
  // A parameter name of five or more words is a sentence, not a name: it discloses nothing (an
  // instruction smuggled in a name would otherwise "declare" the network use it asks for).
  const keys = schemaKeys(tool.inputSchema).map(splitIdentifier).filter((k) => k.trim().split(/\s+/).length < 5);
  // With a schema, the handler's own parameter names (`request` of a CallTool handler) are plumbing.
  const schemaNames = new Set(schemaKeys(tool.inputSchema));
  const inputs = (tool.inputNames ?? []).filter((n) => schemaNames.size === 0 || schemaNames.has(n));
  const names = [splitIdentifier(tool.name), ...keys, ...inputs.map(splitIdentifier)].join(' ').slice(0, 8000);
  // Parameter descriptions are text the model and the user read about the tool as much as its description
  // ("the query is sent to the … API"): they disclose with it. Parameter names stay names (below).
  const full = [tool.description, ...parameterDescriptions(tool).map((p) => p.description)].join('\n').slice(0, 8000);
  // An explicit promise to stay offline is read, then taken out of the text whose words disclose the network.
  let offline = false;
  let excepted = false;
  const description = full.replace(OFFLINE_CLAIM, (m: string, offset: number) => {
    offline = true;
    if (OFFLINE_EXCEPTION.test(full.slice(offset + m.length))) excepted = true;
    return ' '.repeat(m.length);
  });
  const words = [splitIdentifier(tool.name), tool.description, ...keys, ...inputs.map(splitIdentifier)].join(' ').slice(0, 8000);
  const claims = { words } as DescriptionClaims;
  for (const [key, pattern] of Object.entries(VOCABULARY)) {
    const named = IDENTIFIER_VOCABULARY[key as keyof typeof VOCABULARY].test(names);
    (claims as unknown as Record<string, boolean>)[key] = pattern.test(description) || named;
  }
  // The `openWorldHint: false` annotation says the same to clients: the tool touches nothing outside the host.
  claims.offline = (offline && !excepted && !NETWORK_ACTION.test(description)) || (tool.closedWorldHint === true && !NETWORK_ACTION.test(full));
  return claims;
}
