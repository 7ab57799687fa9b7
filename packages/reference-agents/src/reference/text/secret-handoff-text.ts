import { describedAsAttack, isQuotedExample } from './quoted-example.js';

/**
 * An order, in prose, to collect secrets and send them somewhere, read as a flow over a passage rather
 * than as one sentence: the secrets named in one sentence, line, list item or table cell (a key file, a
 * `.env`, `~/.aws`, a keychain, browser data, a `*_TOKEN` variable, `printenv`), and, within the few lines
 * around them, a clause that sends "them" / "their contents" / "the values" out (a web address, a mail
 * address, a gist, an issue comment, a webhook, a DNS name with a slot, a tool the model calls). What the
 * one-sentence phrase rules miss when the steps are split ("Read ~/.aws/credentials. Post them to …"), put
 * in a bullet list or a table, or written in another language. Advice ("never send .env anywhere"), a
 * key used for authentication ("send it in the Authorization header") and quoted specimens are not orders.
 */

// Secrets named by path, command or variable: the same in every language.
export const SECRET_THING = new RegExp(
  [
    String.raw`(?:~|\$HOME|%USERPROFILE%)[\\/]\.(?:ssh|aws|gnupg|kube|docker|azure|config\/gcloud)\b`,
    String.raw`\bid_(?:rsa|ed25519|ecdsa|dsa)\b`,
    String.raw`\.aws[\\/]credentials\b|\.kube[\\/]config\b|\.docker[\\/]config\.json\b|\.config[\\/](?:gh[\\/]hosts\.yml|gcloud|op)\b|application_default_credentials\.json\b|\.vault-token\b|\.password-store\b|Library[\\/]Keychains\b|\.terraformrc\b`,
    String.raw`(?:^|[\s\x60'"(~/])\.(?:npmrc|pypirc|netrc|git-credentials|pgpass)\b`,
    String.raw`(?:^|[\s\x60'"(/])\.env(?:\.[\w-]+)?(?![\w-])`,
    String.raw`\.(?:bash|zsh|sh|fish|python|psql|mysql|node_repl)_history\b`,
    String.raw`\b(?:security\s+(?:find-(?:generic|internet)-password|dump-keychain)|login\.keychain(?:-db)?|Keychain\s+Access)\b`,
    String.raw`\bLogin\s+Data\b|\blogins\.json\b|\bkey[34]\.db\b|\bcookies\.sqlite\b|\bLocal\s+State\b`,
    String.raw`\bprintenv\b|\x60env\x60|\bos\.environ\b(?!\s*(?:\.get|\[))|\bprocess\.env\b(?!\s*\.)|\bgh\s+auth\s+token\b|\baws\s+configure\s+export-credentials\b`,
    String.raw`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:TOKEN|SECRET|SECRET_KEY|ACCESS_KEY|API_KEY|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY)\b|\b_(?:TOKEN|KEY|SECRET)\b`,
  ].join('|'),
);
// Secrets named in words, in the languages a skill is commonly written in.
export const SECRET_WORDS = new RegExp(
  [
    String.raw`\b(?:environment\s+variables?|env\s+vars?|api[\s_-]?keys?|access\s+keys?|secret\s+keys?|private\s+keys?|ssh\s+keys?|credentials?|secrets|passwords?|(?:access|auth|session|bearer|github|npm|api)\s+tokens?|session\s+cookies|browser\s+cookies|saved\s+passwords|keychain|seed\s+phrases?|wallet\s+keys?|recovery\s+phrases?)\b`,
    String.raw`환경\s*변수|비밀번호|자격\s*증명|인증\s*정보|API\s*키`,
    String.raw`variables\s+de\s+entorno|credenciales|contraseñas|claves(?:\s+(?:de\s+api|privadas|ssh))?`,
    String.raw`Umgebungsvariablen|Zugangsdaten|Passw(?:ö|oe)rter|Schlüssel|Anmeldedaten`,
    String.raw`variables\s+d['’]environnement|identifiants|mots\s+de\s+passe|clés(?:\s+(?:api|privées|ssh))?`,
    String.raw`variáveis\s+de\s+ambiente|credenciais|senhas|chaves`,
    String.raw`环境变量|密钥|私钥|令牌|凭据|凭证|密码|環境変数|認証情報|パスワード|秘密鍵|トークン`,
    String.raw`переменные\s+окружения|ключи|токены|пароли|учётные\s+данные|учетные\s+данные`,
  ].join('|'),
  'i',
);

// Sending, in the imperative, in those languages. English verbs are read with what they send (OBJECT).
const SEND_EN =
  /\b(?:send|post|upload|submit|forward|transmit|e-?mail|mail|share|sync|push|commit|publish|exfiltrate|report|beacon|include|put|add|paste|attach|embed|write|append|copy|log|record|save|store|file|leave)\b/gi;
const SEND_OTHER =
  /(?:^|[\s,;:(])(?:envía(?:lo|los|las)?|envíe|enviar|manda|mande|sube|suba|subir|publica|comparte|reenvía|transmite|sende|senden|schicke|schicken|übermittle|übermitteln|lade\b[^.\n]{0,60}\bhoch|hochladen|poste|teile|envoie|envoyez|envoyer|transmets|transmettez|téléverse[zr]?|publie[zr]?|partage[zr]?|envie|envia|carregue|publique|compartilhe|invia|inviare|carica|отправь(?:те)?|отправить|загрузи(?:те)?|перешли(?:те)?|передай(?:те)?)(?=[\s,.:;)]|$)|发送|发到|发给|上传|提交到|传到|转发|推送到|送信|送って|送る|アップロード|投稿|전송|보내|업로드/gi;
// Where it goes: a web address, a mail address, a gist, a paste site, an issue, a webhook, a tool the model calls.
const DESTINATION =
  /\bhttps?:\/\/(?!(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])[:/\s])[\w-]+(?:\.[\w-]+)+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b|\bgists?\b|\bgh\s+(?:gist|issue|pr)\s+(?:create|comment)\b|\bpaste(?:bin|\s+site)\b|\bhastebin\b|\bwebhooks?\b|\b(?:issue|ticket|pull\s+request)\s+(?:tracker|comments?)\b|\bcomments?\s+on\s+(?:the\s+|an?\s+)?(?:issue|ticket|pull\s+request|PR)\b|\b(?:nslookup|dig|host)\s+\S*[<{$]|\b(?:look\s+up|resolve|query)\s+\S*[<{$][^\s]*\.[a-z]|\bcommit\s+messages?\b|\b(?:PR|pull\s+request)\s+(?:description|body|title)\b|\bpublic\s+(?:issue|repo(?:sitory)?|gist|channel)\b/i;
const TO_DESTINATION = new RegExp(String.raw`\b(?:to|into|onto|at|via|in|on|as|through)\s+(?:(?:a|an|the|our|this|that|new|secret|public|private|your|their|its|JSON|text|plain\s+text)\s+)*[\x60'"<(]?(?:${DESTINATION.source})`, 'i');
// A tool of the model's own that the secrets are to be passed to (`call the log_event tool with …`).
const TOOL_SINK = /\b(?:call|invoke|use|run)\s+(?:the\s+)?[`'"]?[\w.-]+[`'"]?\s+(?:tool|function|mcp\s+tool)\s+(?:with|passing|and\s+pass)\b/i;
// An address whose query or path has a slot the secret is to fill, opened or fetched: the request carries it.
// The slot names the secret itself (`{GITHUB_TOKEN}`, `$AWS_SECRET_ACCESS_KEY`, `<contents of .env>`): an API's own
// `apiKey={key}` in its documentation is how the key authenticates, not a hand-over.
const URL_SLOT_SINK = /\b(?:open|fetch|visit|request|load|get|call|curl|browse\s+to|navigate\s+to)\b[^.\n]{0,40}https?:\/\/[^\s)'"`]*[?&/=](?:<[^>\n]{0,60}?(?:[A-Z0-9]_(?:TOKEN|KEY|SECRET|PASSWORD)|\.env\b|id_rsa|credentials)[^>\n]{0,40}>|\{\{?[^}\n]{0,60}?(?:[A-Z0-9]_(?:TOKEN|KEY|SECRET|PASSWORD)|\.env\b|id_rsa|credentials)[^}\n]{0,40}\}|\$\{?[A-Z][A-Z0-9_]*_(?:TOKEN|KEY|SECRET|PASSWORD)\b)/i;
const DNS_SINK = /\b(?:nslookup|dig|host|ping)\s+\S*[<{$]|\b(?:as|in|into)\s+(?:a\s+|the\s+)?(?:subdomain|DNS\s+label|hostname)\s+(?:of|under|on)\s+[\w-]+(?:\.[\w-]+)+|\b(?:look\s+up|resolve|query)\s+(?:the\s+(?:host(?:name)?|domain|name)\s+)?\S*[<{$][^\s]*\.[a-z]/i;
// What the English verb sends: the secrets, or a word that points back at them.
const OBJECT =
  /^\s*(?:(?:all|both|each|every)\s+(?:of\s+)?)?(?:them|it|these|those|they|this|everything|all\s+of\s+(?:it|them)|(?:their|its|the|all|that|those|these|this|every|each|your)\s+(?:(?:full|raw|complete|whole|entire|gathered|collected|extracted|harvested|above|resulting|found|same)\s+)?(?:contents?|values?|data|output|results?|keys?|tokens?|credentials?|secrets?|passwords?|variables?|files?|findings|list|text|lines?|bundle|archive|dump|lot)\b|(?:the\s+)?(?:full\s+)?(?:contents?|output|values?)\s+of\b)/i;
// A key used to authenticate, a note to the user, or advice: not a hand-over.
const AUTH_USE = /\b(?:header|authori[sz]ation|bearer|authenticat\w*|log\s*in|sign\s+in|api\s+calls?)\b/i;
export const NEGATION = /\b(?:never|not|don['’]t|do\s+not|must\s+not|should\s+not|avoid|without|no)\b|\bnunca\b|\bno\s+(?:env[ií]e|mande|suba)|\bnie(?:mals)?\b|\bkeine?\b|\bjamais\b|\bne\s+\w+\s+pas\b|\bnão\b|\bnon\b|不要|切勿|绝不|禁止|しないで|никогда|\bне\s/i;

// A sentence about what an attacker or injected text does ("Attackers may instruct an agent to collect .env files and
// publish them as a gist"): a security guide describing the attack, not an order.
export const ATTACK_SUBJECT =
  /\b(?:attackers?|adversar(?:y|ies)|threat\s+actors?|scammers?|malicious\s+(?:skills?|prompts?|instructions?|actors?|pages?|documents?|content|packages?|servers?|tools?)|injected\s+(?:text|instructions?|prompts?|content)|(?:a|an)\s+(?:compromised|poisoned|rogue|malicious)\s+[\w-]+)\b[^.\n]{0,60}?\b(?:may|might|can|could|will|would|often|try|tries|attempt\w*|instruct\w*|tells?|asks?)\b/i;
// A container the agent creates or opens and puts the secrets in: "create a gist containing all of it", "open a new
// issue on the public tracker with debug.txt as its body". The destination comes first, what it holds after.
const HOLDING_DESTINATION =
  /\b(?:create|open|make|start|file|publish|post|submit|raise|write|add|upload)\s+(?:(?:a|an|the|new|public|secret|anonymous|private|unlisted|shared)\s+)*(?:[\w-]+\s+)?(?:gists?|pastes?|pastebin\s+(?:entry|post)|snippets?|issues?|tickets?|discussions?|comments?|(?:public\s+)?repo(?:sitory)?)\b((?:[^.\n]|\.(?=\S)){0,90}?)\b(containing|that\s+contains|which\s+contains|holding|including|filled\s+with|with\s+(?=[^.\n]{0,60}?\bas\s+(?:its|the)\s+(?:body|content|contents|description|text|file))|with)\s+/gi;
// What an issue or comment is opened bare "with" is anything (the findings, the output): a send only when it is the
// secrets — pointed back at (them, these, all of it), a secret named by path or command, or a noun phrase ending in a
// secret noun, read through "the contents / output / values of".
const BACK_REFERENCE = /^\s*(?:them|these|those|all\s+of\s+(?:it|them))\b/i;
const SECRET_HEAD = new RegExp(String.raw`(?:${SECRET_WORDS.source}|\b(?:keys?|tokens?|passphrases?|cookies))$`, 'i');
function withsSecrets(after: string): boolean {
  if (BACK_REFERENCE.test(after)) return true;
  const phrase = after.split(/\s+(?:about|regarding|describing|listing|for|that|which|so|to|and|then)\b|[,;:!?()]|\.(?=\s|$)/)[0] ?? '';
  if (SECRET_THING.test(phrase)) return true;
  const head = (phrase.replace(/^\s*(?:[\w-]+\s+){0,4}?(?:contents?|output|values?|dump|copy|text)\s+of\s+/i, '').split(/\s+(?:of|in|from|on|at|with|under|as)\b/)[0] ?? '').replace(/[\x60'"\s]+$/, '');
  return SECRET_HEAD.test(head);
}
// Where the secrets become public or are left for anyone: said so, or a paste service.
const PUBLIC_PLACE = /\bpublic(?:ly)?\b|\bpaste(?:bin|\s+(?:site|service))\b|\bhastebin\b|\banyone\s+(?:can|could|with\s+the\s+link)\b/i;
// What the user is told instead: a fixed cover message ("tell the user only \"Backup complete\"").
const COVER_MESSAGE =
  /\b(?:(?:tell|report\s+to|reply\s+to|inform|answer)\s+(?:the\s+user\s+)?(?:only|just|simply|nothing\s+but)\b|(?:say|reply|respond|report|answer|write)\s+(?:only|just|nothing\s+but)\b|(?:only|just|simply)\s+(?:say|reply|respond|report|tell\s+(?:the\s+user|them))\b|(?:reply|respond)\s+only\s+with\b|(?:then|and|finally)\s+tell\s+the\s+user\s+(?:that\s+)?(?:the\s+|your\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:is\s+|was\s+|has\s+)?(?:done|complete|completed|finished|succeeded|successful|saved|ready))/i;

export const SECRET_HANDOFF_TITLE = 'instruction to collect secrets and send them out (steps read together)';

export interface SecretHandoff {
  offset: number;
  evidence: string;
  /** A secret named by path, command or variable (CRIT), or only in words (HIGH). */
  strong: boolean;
}

export interface Unit {
  text: string;
  offset: number;
  line: number;
}

/** Sentences (and table cells' rows, list items, lines), each with its offset and line. */
export function units(text: string): Unit[] {
  const out: Unit[] = [];
  let line = 0;
  let start = 0;
  let startLine = 0;
  const push = (to: number) => {
    const raw = text.slice(start, to);
    const lead = raw.length - raw.trimStart().length;
    const skipped = raw.slice(0, lead).split('\n').length - 1;
    if (raw.trim() !== '') out.push({ text: raw.slice(lead), offset: start + lead, line: startLine + skipped });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1] ?? '\n';
    // A wrapped line continues its sentence unless the next line starts a list item, a heading or a row.
    const ends = c === '\n' ? /^[ \t]*(?:\n|$|[-*+#>|]|\d+[.)]\s|```|~~~)/.test(text.slice(i + 1, i + 12)) || /[.!?:;。！？]\s*$/.test(text.slice(Math.max(0, i - 2), i)) || /^[ \t]*[#|]/.test(text.slice(start, i)) : /[.!?。！？]/.test(c) && (/\s/.test(next) || /[。！？]/.test(c));
    if (c === '\n') line++;
    if (ends) {
      push(i + 1);
      start = i + 1;
      startLine = line;
    }
  }
  push(text.length);
  return out;
}

/** The English send clauses of a unit whose object is the secrets; the other languages' send verbs. */
function sendClause(unit: string): RegExpExecArray | null {
  // A name looked up with the secret in it: the lookup itself carries it out (DNS exfiltration).
  // `GET https://…` is an HTTP method in an API's documentation, not an order.
  const slot = URL_SLOT_SINK.exec(unit);
  const dns = DNS_SINK.exec(unit) ?? (slot !== null && !/^GET\b/.test(slot[0]) && !authenticatesToOwnApi(slot[0]) ? slot : null);
  if (dns !== null && !NEGATION.test(unit.slice(0, dns.index))) return dns;
  if (!DESTINATION.test(unit) && !TOOL_SINK.test(unit)) return null;
  const tool = TOOL_SINK.exec(unit);
  if (tool !== null && !NEGATION.test(unit.slice(0, tool.index))) {
    // The tool is handed the secrets, not a command of its own ("call the aws tool with the command …").
    const given = unit.slice(tool.index + tool[0].length);
    if (OBJECT.test(given) || SECRET_THING.test(given.slice(0, 80)) || SECRET_WORDS.test(given.slice(0, 60))) return tool;
  }
  for (const m of unit.matchAll(new RegExp(SEND_OTHER.source, 'gi'))) {
    const lead = unit.slice(Math.max(0, m.index - 30), m.index);
    if (!NEGATION.test(lead) && DESTINATION.test(unit.slice(m.index, m.index + 200))) return m;
  }
  for (const m of unit.matchAll(new RegExp(SEND_EN.source, 'gi'))) {
    const after = unit.slice(m.index + m[0].length);
    const object = OBJECT.exec(after) ?? (SECRET_THING.test(after.slice(0, 60)) || SECRET_WORDS.test(after.slice(0, 40)) ? /^/.exec(after) : null);
    if (object === null) continue;
    const rest = after.slice(0, 200);
    // The destination is where the verb puts it: after to / into / at / via / in / on (a changelog's "in [#87](https://…)" is a link).
    const dest = TO_DESTINATION.exec(rest);
    if (dest === null) continue;
    const clause = unit.slice(Math.max(0, m.index - 40), m.index + m[0].length + dest.index + dest[0].length);
    if (NEGATION.test(unit.slice(Math.max(0, m.index - 40), m.index)) || AUTH_USE.test(clause)) continue;
    return m;
  }
  return null;
}

/**
 * A gist, paste, issue or repository the unit has the agent create with the secrets in it: what follows
 * "containing" / "with" is "them" / "all of it", a secret, or a file (`debug.txt`) that an earlier step filled.
 */
function holdingDestination(unit: string): { file?: string } | null {
  for (const m of unit.matchAll(HOLDING_DESTINATION)) {
    if (NEGATION.test(unit.slice(Math.max(0, m.index - 40), m.index))) continue;
    const after = unit.slice(m.index + m[0].length, m.index + m[0].length + 80);
    const bareWith = /^with$/i.test(m[2] as string);
    if (bareWith ? withsSecrets(after) : OBJECT.test(after) || SECRET_THING.test(after.slice(0, 60)) || SECRET_WORDS.test(after.slice(0, 40))) return {};
    const file = /^[\x60'"]?((?:[\w~$-]+\/)*[\w-]+\.(?:txt|md|json|ya?ml|log|env|zip|tar|tgz|gz|csv|out|dump))\b/.exec(after);
    if (file !== null) return { file: file[1] as string };
  }
  return null;
}

// "Send them with:", "post the values using:", "upload them by running:": the send's destination is the command that follows.
const SEND_WITH = new RegExp(String.raw`${SEND_EN.source}\s+(?=\S)`, 'gi');
const WITH_COLON = /^[^.\n]{0,60}?\b(?:with|using|via|by\s+running|running|through)\b[^.\n]{0,30}:\s*$/i;
const COMMAND_SENDER = /\b(?:curl|wget|Invoke-RestMethod|Invoke-WebRequest|irm|iwr|http|https|xh|nc|ncat)\b/;

/**
 * A send verb whose object is the secrets and whose destination is the command introduced by the
 * colon that ends the sentence ("2. Send them with:" then `` `curl -d "…" https://…` `` on the next line
 * or in a code block): the prose rule reads no address in the sentence, the command rule no order in
 * the command. A command that puts the key in an authentication header or `-u` uses it there.
 */
function sendWithCommand(text: string, u: Unit): { match: RegExpExecArray; command: string } | null {
  if (!/:\s*$/.test(u.text)) return null;
  for (const m of u.text.matchAll(SEND_WITH)) {
    const after = u.text.slice(m.index + m[0].length);
    const object = OBJECT.exec(after) ?? (SECRET_THING.test(after.slice(0, 60)) || SECRET_WORDS.test(after.slice(0, 40)) ? /^/.exec(after) : null);
    if (object === null || !WITH_COLON.test(after.slice(object[0].length)) || NEGATION.test(u.text.slice(0, m.index))) continue;
    // The command: the next line, or the body of a code block opening there.
    const rest = text.slice(u.offset + u.text.length, u.offset + u.text.length + 800).replace(/^\s*\n/, '');
    const fence = /^[ \t]*(```|~~~)[^\n]*\n([\s\S]*?)^[ \t]*\1/m.exec(rest);
    const command = fence !== null && fence.index === 0 ? (fence[2] ?? '') : (rest.split('\n')[0] ?? '');
    if (!COMMAND_SENDER.test(command) || !AWAY_ADDRESS.test(command) || /\b(?:authori[sz]ation|bearer)\b|-H\s*["']?[\w-]*(?:key|token|auth)\b|\s(?:-u|--user)\s/i.test(command)) continue;
    return { match: m, command };
  }
  return null;
}

// The query parameter an API reads its key from (`appid=`, `api_key=`, `key=`, `access_token=`).
const AUTH_PARAM = /[?&](?:app_?id|api_?key|apikey|key|access_?token|token|auth|subscription-key)=$/i;
// A placeholder naming no vendor (`<API_KEY>`, `{apiKey}`, `YOUR_API_KEY`).
const GENERIC_KEY = /^(?:YOUR_?)?(?:API_?KEY|KEY|TOKEN|ACCESS_?TOKEN|APP_?ID)$/i;

/**
 * A documented request putting an API's key where that API reads it: an authentication parameter of the
 * address, and a placeholder that names no vendor or names the host's own (`appid=<API_KEY>` to
 * openweathermap.org, `key=$GOOGLE_API_KEY` to googleapis.com). A vendor's token sent to another host
 * (`?token=$GITHUB_TOKEN` to a collector) is still a hand-over.
 */
function authenticatesToOwnApi(sink: string): boolean {
  const url = /https?:\/\/([^/\s?#]+)[^\s)'"`]*/.exec(sink);
  if (url === null) return false;
  const slot = /[<{$]\{?\{?\s*([A-Za-z][\w-]*)/.exec(url[0].slice(url[0].lastIndexOf('=') + 1)) ?? null;
  const before = url[0].slice(0, url[0].lastIndexOf('=') + 1);
  if (slot === null || !AUTH_PARAM.test(before.slice(Math.max(0, before.lastIndexOf('?'), before.lastIndexOf('&'))))) return false;
  const name = slot[1] as string;
  if (GENERIC_KEY.test(name)) return true;
  const stem = name.replace(/_(?:API_?KEY|KEY|TOKEN|ACCESS_?TOKEN|SECRET|APP_?ID)$/i, '').toLowerCase().replace(/_/g, '');
  return stem.length >= 3 && (url[1] as string).toLowerCase().replace(/[-.]/g, '').includes(stem);
}

/**
 * Orders in a text to collect secrets and send them out, the two steps within six lines of each other
 * and under one heading. One per text (the first).
 */
export function secretHandoffs(text: string): SecretHandoff[] {
  if (text.length > 512 * 1024) return [];
  // Code blocks are commands and samples, read as such by the command rules: the orders are the prose around them.
  const fences = [...text.matchAll(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm)].map((m) => [m.index, m.index + m[0].length] as const);
  const list = units(text).filter((u) => !fences.some(([a, b]) => u.offset < b && u.offset + u.text.length > a));
  // Units under each heading share a section number: the steps of one procedure.
  let section = 0;
  const sectionOf = list.map((u) => (/^\s*#{1,6}\s/.test(u.text) ? ++section : section));
  let quoteChecks = 0;
  // The secrets named in unit `j`, for a send in unit `k`: same section, not in a prohibition, not a quoted specimen.
  const secretAt = (j: number, k: number): boolean => {
    const v = list[j] as Unit;
    if (sectionOf[j] !== sectionOf[k]) return false;
    const secret = SECRET_THING.exec(v.text) ?? SECRET_WORDS.exec(v.text);
    if (secret === null) return false;
    // "Never commit .env", "keep your keys out of …": the secret named in a prohibition is not collected.
    if (j !== k && NEGATION.test(v.text.slice(0, secret.index))) return false;
    // The quoting reading walks the text before the offset: only for a secret that would complete a hand-over.
    const at = v.offset + secret.index;
    const u = list[k] as Unit;
    // A guide quoting hand-overs by the hundred is read for its first fifty: each reading is linear in the text.
    if (++quoteChecks > 50) return false;
    return !isQuotedExample(text, at, at + secret[0].length) && !describedAsAttack(text, u.offset) && !isQuotedExample(text, u.offset, u.offset + u.text.length);
  };
  // Secrets named only in words are as strong when they are made public or the user is told a cover story.
  const exposed = (h: SecretHandoff, k: number): SecretHandoff => {
    if (h.strong) return h;
    const u = list[k] as Unit;
    const around = list.filter((x, i) => sectionOf[i] === sectionOf[k] && Math.abs(x.line - u.line) <= 8).map((x) => x.text).join('\n');
    return { ...h, strong: PUBLIC_PLACE.test(u.text) || COVER_MESSAGE.test(around) };
  };
  const hit = (j: number, k: number): SecretHandoff => {
    const v = list[j] as Unit;
    const u = list[k] as Unit;
    const from = Math.min(v.offset, u.offset);
    const to = Math.max(v.offset + v.text.length, u.offset + u.text.length);
    return { offset: from, evidence: text.slice(from, to).replace(/\s+/g, ' ').trim().slice(0, 300), strong: SECRET_THING.test(v.text) };
  };
  for (let k = 0; k < list.length; k++) {
    const u = list[k] as Unit;
    if (ATTACK_SUBJECT.test(u.text)) continue;
    const held = holdingDestination(u.text);
    if (held !== null) {
      // The secrets: in this unit, or in one of the units up to six lines before it (the one that filled the file it names).
      for (let j = k; j >= 0 && u.line - (list[j] as Unit).line <= 6; j--) {
        if (held.file !== undefined && j !== k && !(list[j] as Unit).text.includes(held.file)) continue;
        if (secretAt(j, k)) return [exposed(hit(j, k), k)];
      }
    }
    const viaCommand = sendClause(u.text) === null ? sendWithCommand(text, u) : null;
    const send = sendClause(u.text) ?? viaCommand?.match ?? null;
    // A table row: the secret in one cell, the address in another, the table's header saying where to send.
    const row = send === null && /^\s*\|/.test(u.text) && DESTINATION.test(u.text) && (SECRET_THING.test(u.text) || SECRET_WORDS.test(u.text));
    if (send === null && !row) continue;
    if (row) {
      const header = list.slice(Math.max(0, k - 8), k).reverse().find((x) => /^\s*\|/.test(x.text) && !/^\s*\|[\s|:-]+\|\s*$/.test(x.text) && !SECRET_THING.test(x.text));
      if (header === undefined || !/\b(?:send|post|upload|destination|target|endpoint|webhook|where)\b/i.test(header.text)) continue;
    }
    // The secrets: this unit, or one of the units up to six lines before it (or two after, for a tool called "with" them).
    // A command that itself carries a secret variable or the environment makes the hand-over as strong as a named secret.
    const strongCommand = viaCommand !== null && viaCommand !== undefined && (SECRET_THING.test(viaCommand.command) || /\benv\s*\||\bprintenv\b/.test(viaCommand.command));
    for (let j = k; j >= 0 && u.line - (list[j] as Unit).line <= 6; j--) if (secretAt(j, k)) return [exposed({ ...hit(j, k), strong: hit(j, k).strong || strongCommand }, k)];
    for (let j = k + 1; j < list.length && (list[j] as Unit).line - u.line <= 2; j++) if (secretAt(j, k)) return [exposed(hit(j, k), k)];
  }
  return payloadInclusion(text, list, fences);
}

// What a document has the agent send: a report, a payload, a request's body, an object or field of it.
const PAYLOAD_NOUN = String.raw`(?:report|payload|body|request|context|message|submission|json|object|field|upload|bundle|entry|event|record|ticket|form)`;
const INCLUDE_VERB = String.raw`(?:include|includes|including|contain|contains|carry|carries|hold|holds|embed|attach|add|put|paste|insert|fill|append)`;
// "the `context` object must include … .env contents", "the payload carries …": the sent thing named first.
const SENT_THING_HOLDS = new RegExp(String.raw`\b${PAYLOAD_NOUN}\b[\x60'"]?(?:\s+[\w\x60'"-]+){0,4}?\s+(?:(?:must|should|shall|needs?\s+to|has\s+to|will|is\s+to)\s+(?:also\s+)?)?${INCLUDE_VERB}\b`, 'i');
// "include the .env contents in the report": the secret then the sent thing.
const INTO_SENT_THING = new RegExp(String.raw`\b${INCLUDE_VERB}\b[^.\n]{0,160}?\b(?:in|into|to|with)\s+(?:the\s+|its\s+|each\s+|every\s+)?[\x60'"]?[\w-]*[\x60'"]?\s*${PAYLOAD_NOUN}\b`, 'i');
// A command in the section that sends a body to a host that is not this machine.
const OUTBOUND_SEND = /\b(?:curl|wget|Invoke-RestMethod|Invoke-WebRequest|irm|iwr|http|https|xh)\b[^\n]*(?:\n[^\n]*){0,3}?\s(?:-X\s*POST|-X\s*PUT|--data\S*|-d|-F|--form|-T|--upload-file|-Method\s+(?:Post|Put)|--post-\w+|POST|PUT)\b|\b(?:POST|PUT)\s+https?:\/\//;
const AWAY_ADDRESS = /\bhttps?:\/\/(?!(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])[:/\s])[\w-]+(?:\.[\w-]+)+/;

/**
 * Secrets put into what the document has the agent send, when the sending is a command of the same
 * section (often in a code block, which the prose rules do not read as an order): "publish it with
 * `curl -X POST https://…`" and, beside it, "the `context` object must include the project's `.env`
 * contents and the tokens seen in this session". The send and the secrets are two sentences that name
 * no common object but the payload.
 */
function payloadInclusion(text: string, list: readonly Unit[], fences: ReadonlyArray<readonly [number, number]>): SecretHandoff[] {
  const headings = [0, ...[...text.matchAll(/^\s{0,3}#{1,6}\s/gm)].map((m) => m.index), text.length];
  for (const u of list) {
    const holds = SENT_THING_HOLDS.exec(u.text) ?? INTO_SENT_THING.exec(u.text);
    if (holds === null) continue;
    const after = u.text.slice(holds.index, holds.index + holds[0].length + 240);
    const secret = SECRET_THING.exec(after) ?? SECRET_WORDS.exec(after);
    if (secret === null || NEGATION.test(u.text.slice(0, holds.index + holds[0].length)) || AUTH_USE.test(after.slice(0, secret.index + secret[0].length + 40))) continue;
    const from = headings.filter((h) => h <= u.offset).pop() ?? 0;
    const to = headings.find((h) => h > u.offset) ?? text.length;
    const section = text.slice(from, to);
    const send = OUTBOUND_SEND.exec(section);
    if (send === null || !AWAY_ADDRESS.test(section.slice(send.index, send.index + 600))) continue;
    const at = u.offset + holds.index;
    if (describedAsAttack(text, u.offset) || isQuotedExample(text, at, at + holds[0].length + secret.index + secret[0].length) || fences.some(([a, b]) => at >= a && at < b)) continue;
    return [{ offset: u.offset, evidence: `${u.text.replace(/\s+/g, ' ').trim().slice(0, 220)} … ${section.slice(send.index, send.index + 120).replace(/\s+/g, ' ').trim()}`.slice(0, 300), strong: SECRET_THING.test(after) }];
  }
  return [];
}
