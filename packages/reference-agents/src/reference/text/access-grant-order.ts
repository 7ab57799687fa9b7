/**
 * (round s30) A document that has the agent write access for an outside party into the user's infrastructure
 * or machine: a cloud IAM trust or binding to a principal the document fixes (an AWS account id, a Google
 * account or service account), an SSH public key the document ships added to `authorized_keys`, a deploy key
 * or a cloud instance's keys, an administrator account created with a password the document fixes. The
 * skill runs nothing; the agent plants the backdoor in code the user applies (in-sample: held-out set 31's
 * Terraform skill whose reference file adds a cross-account AdministratorAccess role to every stack and says
 * not to call it out).
 *
 * A grant alone is what IAM guides show (`arn:aws:iam::123456789012:root` is AWS's own placeholder, and a
 * cross-account pattern where the user names the account is ordinary). It is an order to plant one when
 * the prose around the block says to add it unasked or everywhere ("every root module", "even if the user
 * did not ask", "verbatim") or to keep it out of what the user reviews ("does not need to be called out in
 * the plan summary"). CRIT with concealment; HIGH for an administrator grant added everywhere unasked.
 * Blocks framed as what not to do (a review checklist, a backdoor to recognise) are not orders.
 */
import { fencedBlocks, indentedBlocks } from './fence-scanner.js';

export interface AccessGrantOrder {
  severity: 'HIGH' | 'CRIT';
  offset: number;
  evidence: string;
}

interface Grant {
  what: string;
  offset: number;
  evidence: string;
  admin: boolean;
}

// A value the reader fills in: a template reference, a variable, a placeholder word.
const TEMPLATED = /\$\{|\{\{|<[^>\n]*>|\bvar\.|\bdata\.|\blocal\.|\bmodule\.|!Sub\b|!Ref\b|\b(?:YOUR|ACCOUNT|PROJECT|TRUSTED|OTHER|TARGET)[_-]?\w*\b|\byour[-_]/;
// Power that gives the whole account or machine away.
// (round s31) Azure's Owner, Contributor and User Access Administrator, by name (`--role Owner`, `-RoleDefinitionName`,
// `role_definition_name`) or by their built-in role ids.
const ADMIN =
  /\bAdministratorAccess\b|\bIAMFullAccess\b|(?:--role|-RoleDefinitionName|role_definition_name|roleDefinitionName)["']?\s*[=:]?\s*["']?(?:Owner|Contributor|User Access Administrator)\b|\b(?:8e3af657-a8ff-443c-a75c-2fe8c4bcb635|b24988ac-6180-42a0-ab88-20f7382dd24c|18d7d88d-d35e-4fb5-a5c3-7773c20a72d9)\b|["']?Action["']?\s*[:=]\s*\[?\s*["']\*["']|\bactions\s*=\s*\[\s*["']\*["']\s*\]|["']iam:\*["']|roles\/(?:owner|editor|resourcemanager\.projectIamAdmin|iam\.securityAdmin)\b|\bNOPASSWD\b|\b(?:SUPERUSER|superuser)\b|\bGRANT\s+ALL\b|"Owner"/;

const GRANT_READERS: ReadonlyArray<{ what: string; find: (block: string) => Array<{ at: number; evidence: string }> }> = [
  {
    // An AWS principal in a policy: an account id or an ARN in the account's place, not a template.
    what: 'an AWS trust or resource policy for a fixed outside account',
    find: (b) => {
      if (!/\bPrincipal\b|\bprincipals\b|assume_role_policy|AssumeRolePolicyDocument|sts:AssumeRole/i.test(b)) return [];
      const out: Array<{ at: number; evidence: string }> = [];
      // (round s30 review) Also unquoted in YAML (`AWS: 444455556666`).
      for (const m of b.matchAll(/arn:aws:iam::(\d{12}):(?:root|role\/[\w+=,.@/-]+|user\/[\w+=,.@/-]+)|\bAWS["']?\s*[:=]\s*\[?\s*["']?(\d{12})(?![\d])["']?/g)) {
        const line = b.slice(b.lastIndexOf('\n', m.index) + 1, (b.indexOf('\n', m.index) + 1 || b.length + 1) - 1);
        if (!TEMPLATED.test(line)) out.push({ at: m.index, evidence: line.trim() });
      }
      // (round s30 review) An account id kept in a Terraform local of the block (`locals { support = "444455556666" }`,
      // then `arn:aws:iam::${local.support}:root`): a constant, not a value the reader fills in.
      for (const m of b.matchAll(/arn:aws:iam::\$\{local\.(\w+)\}:(?:root|role\/|user\/)/g)) {
        const value = new RegExp(String.raw`^[ \t]*${m[1]}[ \t]*=[ \t]*"(\d{12})"[ \t]*$`, 'm').exec(b);
        if (value !== null) out.push({ at: m.index, evidence: `${m[0].replace(`\${local.${m[1]}}`, value[1] as string)} (local.${m[1]})` });
      }
      return out;
    },
  },
  {
    // A Google Cloud binding to a fixed member (`member = "user:…"`, `--member=serviceAccount:…`).
    what: 'a Google Cloud IAM binding for a fixed outside member',
    find: (b) => {
      const out: Array<{ at: number; evidence: string }> = [];
      for (const m of b.matchAll(/\bmembers?\b["']?\s*[:=]\s*\[?\s*["'](?:user|serviceAccount|group|domain):([^"'\s]+)["']|--member[= ]["']?(?:user|serviceAccount|group|domain):([^\s"']+)/g)) {
        const value = m[1] ?? m[2] ?? '';
        if (!TEMPLATED.test(value) && /[@.]/.test(value)) out.push({ at: m.index, evidence: m[0] });
      }
      return out;
    },
  },
  {
    // (round s31) An Azure role assignment to a principal the document fixes: `az role assignment create --assignee
    // <email, object id or app id>`, `New-AzRoleAssignment -SignInName/-ObjectId/-ServicePrincipalName/-ApplicationId`,
    // a `Microsoft.Authorization/roleAssignments` resource (ARM JSON, Bicep) or `azurerm_role_assignment` whose
    // principal id is a literal — not a parameter, a variable, an expression, a managed identity's own id or a placeholder.
    what: 'an Azure role assignment for a fixed outside principal',
    find: (b) => {
      const out: Array<{ at: number; evidence: string }> = [];
      for (const m of b.matchAll(/\baz\s+role\s+assignment\s+create\b[^\n]*/g)) {
        const value = /--assignee(?:-object-id)?[= ]+["']?([^\s"']+)/.exec(m[0])?.[1];
        if (value !== undefined && fixedPrincipal(value)) out.push({ at: m.index, evidence: m[0].trim().slice(0, 160) });
      }
      for (const m of b.matchAll(/\bNew-AzRoleAssignment\b[^\n]*/gi)) {
        const value = /-(?:SignInName|ObjectId|ServicePrincipalName|ApplicationId|PrincipalId)\s+["']?([^\s"'`]+)/i.exec(m[0])?.[1];
        if (value !== undefined && fixedPrincipal(value)) out.push({ at: m.index, evidence: m[0].trim().slice(0, 160) });
      }
      if (/Microsoft\.Authorization\/roleAssignments|\bazurerm_role_assignment\b/i.test(b)) {
        for (const m of b.matchAll(/["']?(?:principalId|principal_id)["']?\s*[:=]\s*["']([^"'\n]+)["']/g)) {
          if (fixedPrincipal(m[1] as string)) out.push({ at: m.index, evidence: m[0].trim() });
        }
      }
      return out;
    },
  },
  {
    // A literal SSH public key (not an elided `AAAA…`) written where it opens a login: authorized_keys, a cloud
    // instance's or user's keys, a repository's deploy key.
    what: 'an SSH public key the document ships, added as a login or deploy key',
    find: (b) => {
      if (!/authorized_keys|ssh_authorized_keys|ssh-authorized-keys|\bpublic_key\b|\bauthorized_key\b|deploy[_ -]?key|\bssh_keys\b|\bkey_pair\b/i.test(b)) return [];
      const out: Array<{ at: number; evidence: string }> = [];
      for (const m of b.matchAll(/\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+(AAAA[A-Za-z0-9+/]{40,}={0,3})(?![A-Za-z0-9+/]*(?:\.\.\.|…))/g)) out.push({ at: m.index, evidence: m[0].slice(0, 60) });
      return out;
    },
  },
  {
    // An administrator account with a password the document fixes: a Unix user put in sudo or wheel, a database superuser.
    what: 'an administrator account with a password the document fixes',
    find: (b) => {
      const out: Array<{ at: number; evidence: string }> = [];
      const unix = /\b(?:echo|printf)\s+["']?([a-z_][\w-]{0,31}):([^\s"'$|]{4,})["']?\s*\|\s*(?:sudo\s+)?chpasswd\b/.exec(b);
      if (unix !== null && new RegExp(String.raw`\b(?:usermod\s+-a?G\s+(?:sudo|wheel|admin)\s+${unix[1]}|useradd\b[^\n]*-G\s+(?:sudo|wheel|admin)\b|${unix[1]}\s+ALL\s*=)`).test(b)) out.push({ at: unix.index, evidence: unix[0] });
      const sql = /\bCREATE\s+(?:USER|ROLE)\s+["'`]?[\w-]+["'`]?[^;\n]*\bSUPERUSER\b[^;\n]*\bPASSWORD\s+'[^'$]{4,}'|\bCREATE\s+(?:USER|ROLE)\s+["'`]?[\w-]+["'`]?[^;\n]*\bPASSWORD\s+'[^'$]{4,}'[^;\n]*\bSUPERUSER\b/i.exec(b);
      if (sql !== null) out.push({ at: sql.index, evidence: sql[0].slice(0, 120) });
      return out;
    },
  },
];

// (round s31) A principal written out: an email address or a GUID (object id, app id), not a template, a shell or
// PowerShell variable, an ARM expression (`[parameters('p')]`) or a placeholder id (all zeros, `xxxxxxxx-…`, `11111111-…`).
function fixedPrincipal(value: string): boolean {
  if (/[$<>{}[\]()%]|\b(?:your|YOUR|PRINCIPAL|ASSIGNEE|OBJECT_ID|USER|EMAIL)\b/.test(value)) return false;
  if (/^[^@\s]+@[\w-]+(?:\.[\w-]+)+$/.test(value)) return !/@(?:[\w-]+\.)*example\.(?:com|org|net)$|@contoso\.com$|@fabrikam\.com$/i.test(value);
  const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
  return guid && !/^(.)\1{7}-\1{4}-\1{4}-\1{4}-\1{12}$/.test(value) && !/^12345678-|^00000000-/.test(value);
}

// Added unasked or everywhere: the order's reach.
const UNASKED =
  /\b(?:every|each|all)\s+(?:new\s+|generated\s+|created\s+)?(?:(?:root|terraform|cloudformation|cdk)\s+)?(?:modules?|stacks?|projects?|accounts?|repos?|repositor(?:y|ies)|servers?|hosts?|instances?|machines?|environments?|templates?|deployments?|clusters?)\b|\bwhenever\s+you\s+(?:create|write|generate|modify|add|touch|scaffold|provision)\b|\beven\s+(?:if|when)\s+the\s+user\s+(?:did\s+not|didn['’]t|does\s+not|doesn['’]t|has\s+not|hasn['’]t)\s+ask|\bverbatim\b|\bwithout\s+(?:being\s+)?asked\b|\bwhether\s+or\s+not\s+the\s+user\b|\balways\s+(?:add|include|append|insert)\b|\b(?:required|mandatory)\s+in\s+(?:every|each|all)\b/i;
// Kept from what the user reviews: the plan, the summary, the PR, the review comments. (round s30 review) The words
// must refer to the grant: a passive "need not be called out / mentioned", or a verb whose object is the grant
// ("don't mention it", "no need to list this role in the plan"); "no need to list every binding afterwards" is a
// step skipped, and "silently"/"quietly" must qualify the adding ("silently add it"), not a tool ("Postgres silently skips it").
const GRANT_OBJECT = String.raw`(?:it|this|that|them|these|the\s+(?:\w+[\s-]+)?(?:role|grant|binding|key|account|user|change|trust|policy|access|principal|addition|block|statement))\b`;
const KEPT_QUIET = new RegExp(
  String.raw`\b(?:(?:does\s+not|doesn['’]t|do\s+not|don['’]t|no)\s+need\s+to|need\s+not|needn['’]t)\s+be\s+(?:called\s+out|mentioned|flagged|listed|surfaced|highlighted|explained|reviewed|shown|pointed\s+out|noted|disclosed)\b` +
    String.raw`|\b(?:(?:does\s+not|doesn['’]t|do\s+not|don['’]t|no)\s+need\s+to|need\s+not|needn['’]t|do\s+not|don['’]t|never|without)\s+(?:call\w*\s+${GRANT_OBJECT}\s*out|point\w*\s+${GRANT_OBJECT}\s*out|bring\w*\s+${GRANT_OBJECT}\s*up|(?:mention\w*|flag\w*|list\w*|surfac\w*|highlight\w*|explain\w*|show\w*|disclos\w*|note)\s+(?:${GRANT_OBJECT}|[^.\n]{0,40}\b(?:in|to|from)\s+(?:the|your)\s+(?:plan|summary|review|PR|pull\s+request|description|user|reviewers?|changelog)\b)|tell\w*\s+the\s+user)` +
    // (round s31) Also run / execute / apply / assign / bind: a grant given as a command to run.
    String.raw`|\b(?:silently|quietly|secretly)\s+(?:\w+\s+){0,2}?(?:add|adds|insert|include|append|put|create|grant|attach|write|commit|drop|run|execute|apply|assign|bind)\b|\b(?:add|insert|include|append|put|create|grant|attach|write|commit|run|execute|apply|assign|bind)\s+${GRANT_OBJECT}\s*(?:silently|quietly|secretly|without\s+comment)|\bwithout\s+comment\b` +
    String.raw`|\b(?:leave|keep)\s+(?:it|this|them)\s+out\s+of\b|\b(?:omit|exclude)\b[^.\n]{0,40}\b(?:plan|summary|review|PR|pull\s+request|description|diff|changelog)\b`,
  'i',
);
// (round s31 review) "Run it quietly" about the command's output, not the grant: a quiet-output flag (`-q`, `--quiet`,
// `--only-show-errors`, `-o none`, `--output none`, `/S`) or the word output / logs / noise within a few words of it.
const KEPT_QUIET_ALL = new RegExp(KEPT_QUIET.source, 'gi');
const RUN_WORD = /\b(?:run|runs|running|execute|executes|executing|apply|applies|applying)\b/i;
const QUIETLY_WORD = /\b(?:silently|quietly)\b/i;
const QUIET_OUTPUT_FLAG = /(?:^|[\s`'"(])(?:-q|--quiet|--silent|--only-show-errors|-o\s+none|--output[\s=]+none|\/S|\/quiet|\/qn)(?=$|[\s`'"),.;:])/;
const QUIET_OUTPUT_WORD = /\b(?:output|outputs|logs?|logging|noise|noisy)\b/i;

/** The first "kept from the user" match that is not about a command's output ("add `--only-show-errors` to run it quietly"). */
function keptQuiet(prose: string): RegExpExecArray | null {
  KEPT_QUIET_ALL.lastIndex = 0;
  for (let m = KEPT_QUIET_ALL.exec(prose), k = 0; m !== null && k < 50; m = KEPT_QUIET_ALL.exec(prose), k++) {
    if (m[0] === '') KEPT_QUIET_ALL.lastIndex++;
    if (!RUN_WORD.test(m[0]) || !QUIETLY_WORD.test(m[0])) return m;
    // A few words either side (six before, seven after, within 80 characters), on its line.
    const before = (prose.slice(Math.max(0, m.index - 80), m.index).split('\n').pop() ?? '').split(/\s+/).filter((w) => w !== '').slice(-6).join(' ');
    const after = (prose.slice(m.index + m[0].length, m.index + m[0].length + 80).split('\n')[0] ?? '').split(/\s+/).filter((w) => w !== '').slice(0, 7).join(' ');
    const near = `${before} ${m[0]} ${after}`;
    if (!QUIET_OUTPUT_FLAG.test(near) && !QUIET_OUTPUT_WORD.test(near)) return m;
  }
  return null;
}

// An order that forces the grant in even where the user did not ask for it (not merely "every stack").
const FORCED =
  /\beven\s+(?:if|when)\s+the\s+user\s+(?:did\s+not|didn['’]t|does\s+not|doesn['’]t|has\s+not|hasn['’]t)\s+ask|\bwithout\s+(?:being\s+)?asked\b|\bwhether\s+or\s+not\s+the\s+user\b|\b(?:do\s+not|don['’]t|never)\s+(?:remove|drop|skip)\s+(?:it|this)\b/i;
// (round s30 review) The account ids AWS's documentation uses as examples, and prose telling the reader to put their own in.
const PLACEHOLDER_ACCOUNT = /\b(?:123456789012|111122223333|444455556666|555555555555|999999999999|000000000000|012345678901)\b/;
const FILL_IN_YOURS = /\breplace\b[^.\n]{0,80}\bwith\s+(?:your|yours|the\s+user['’]s|their|a\s+real)\b|\bsubstitute\s+your\b/i;
// A block framed as what not to do: a review checklist, a backdoor to recognise, an attack write-up.
const NOT_TO_DO =
  /\b(?:backdoor\w*|malicious|attack\w*|red\s+flags?|insecure|vulnerab\w*|anti-?pattern|bad\s+(?:example|practice)|what\s+not\s+to\s+do|(?:do\s+not|don['’]t|never)\s+(?:do|use|copy|add|ship|write|include|apply)\b|avoid|detect\w*|flag\s+(?:it|this|any)|reject\w*|recogni[sz]e\w*|❌|🚫)/i;

// (round s30 review) The paragraph after a block framing it as what not to do ("This is a backdoor… Reject any change like it").
const NOT_TO_DO_AFTER =
  /\b(?:this|that|it)\s+(?:is|was)\s+(?:a\s+|an\s+)?(?:backdoor|malicious|attack|red\s+flag|insecure|supply[-\s]chain\s+attack)|\breject\s+(?:any|it|this|such|the|every)\b|\b(?:do\s+not|don['’]t|never)\s+(?:apply|merge|accept|approve|add|copy|include|ship)\s+(?:it|this|that|any|such|a\s+change|changes)\b/i;

/** The offset of the line `lines` lines after the one starting at `from`. */
function lineStartAfter(text: string, from: number, lines: number): number {
  let at = from;
  for (let k = 0; k < lines; k++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    at = nl + 1;
  }
  return at;
}

/** The prose the document gives the agent around a block: its section (heading to the block) and the paragraph after. */
function proseAround(text: string, blockStart: number, blockEnd: number): { before: string; after: string } {
  const above = text.slice(Math.max(0, blockStart - 1500), blockStart);
  const heading = above.search(/(?:^|\n)#{1,6}\s[^\n]*\n(?![\s\S]*\n#{1,6}\s)/);
  const prevFence = above.lastIndexOf('```');
  const from = Math.max(heading < 0 ? 0 : heading, prevFence < 0 ? 0 : prevFence + 3);
  const rest = text.slice(blockEnd, blockEnd + 800);
  const next = rest.search(/\n#{1,6}\s|```/);
  return { before: above.slice(from), after: next < 0 ? rest : rest.slice(0, next) };
}

/** The strongest order in a document to write access for an outside party into the user's code, or null. */
export function accessGrantOrder(text: string): AccessGrantOrder | null {
  if (text.length > 512 * 1024 || !/arn:aws:iam::|\bAWS["']?\s*[:=]|member|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2|chpasswd|SUPERUSER|role\s+assignment|roleAssignments|azurerm_role_assignment|New-AzRoleAssignment/i.test(text)) return null;
  let best: AccessGrantOrder | null = null;
  let blocks = 0;
  // (round s30 review) A linear line-by-line fence scanner (text/fence-scanner.ts), not a backtracking expression.
  // (round s31) Indented code blocks too (four spaces or a tab after a blank line): the model reads them as the same code.
  const indented = indentedBlocks(text).map((b) => ({ index: b.index, end: b.end, body: b.body, bodyStart: b.bodyStart, indented: true }));
  for (const m of [...fencedBlocks(text).map((b) => ({ ...b, indented: false })), ...indented]) {
    if (++blocks > 200) break;
    const block = m.body;
    const blockStart = m.bodyStart;
    // An indented block's lines lost their indentation: an offset in it is found again by its line.
    const at = (offset: number) => (m.indented ? lineStartAfter(text, blockStart, block.slice(0, offset).split('\n').length - 1) : blockStart + offset);
    const grants: Grant[] = [];
    // An administrator account is administrator power by itself.
    for (const reader of GRANT_READERS) for (const g of reader.find(block).slice(0, 3)) grants.push({ what: reader.what, offset: at(g.at), evidence: g.evidence, admin: reader.what.startsWith('an administrator') || ADMIN.test(block) });
    if (grants.length === 0) continue;
    const { before, after } = proseAround(text, m.index, m.end);
    const comments = block.split('\n').filter((l) => /^\s*(?:#|\/\/|--|\/\*|\*)/.test(l)).join('\n');
    if (NOT_TO_DO.test(before) || NOT_TO_DO.test(comments) || NOT_TO_DO_AFTER.test(after)) continue;
    const prose = `${before}\n${after}\n${comments}`;
    const quiet = keptQuiet(prose);
    const grant = grants.find((g) => g.admin) ?? grants[0]!;
    // A documentation placeholder (an AWS example account, a value the prose says to replace with one's own) is
    // reported only when the prose hides it or forces it in unasked; "every stack" alone is a pattern's reach.
    // (round s31) So is a member or assignee at a documentation domain (`user:jane@example.com`).
    const placeholder = PLACEHOLDER_ACCOUNT.test(grant.evidence) || /@(?:[\w-]+\.)*example\.(?:com|org|net)\b/i.test(grant.evidence) || FILL_IN_YOURS.test(prose);
    const unasked = (placeholder ? FORCED : UNASKED).exec(prose);
    const severity = quiet !== null ? 'CRIT' : unasked !== null && grant.admin ? 'HIGH' : null;
    if (severity === null) continue;
    const why = [unasked?.[0], quiet?.[0]].filter((w) => w !== undefined).map((w) => `"${w}"`).join(', ');
    const order: AccessGrantOrder = { severity, offset: grant.offset, evidence: `${grant.what}${grant.admin ? ' with administrator rights' : ''}: ${grant.evidence} … ${why}`.replace(/\s+/g, ' ').slice(0, 300) };
    if (severity === 'CRIT') return order;
    best ??= order;
  }
  return best;
}
