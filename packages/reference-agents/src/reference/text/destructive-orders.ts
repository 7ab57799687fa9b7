import { describedAsAttack, isQuotedExample } from './quoted-example.js';
import { prohibitedAt } from './destructive-commands.js';

/**
 * Destructive orders in prose, read by what they tell an agent to do rather than by a fixed phrase
 * (the Amazon Q 1.84 wiper prompt, 2025, and its rewordings): a sentence with a verb of destruction
 * ("delete", "erase", "get rid of", "tear down", "empty") whose object is the user's whole machine
 * or account (the home folder, `~`, the file system, every file; every instance, bucket, project or
 * cloud resource), not narrowed to something the task made (tagged, named, temporary, this
 * project's build output). One such order is HIGH; with a second signal of a wiper (an order of the
 * other kind, a factory-reset goal, enumerating profiles or regions to reach more, carrying on
 * without stopping or asking) it is CRIT.
 */

const DESTROY_VERB =
  /\b(?:delete|deleting|remove|removing|erase|erasing|wipe|wiping|destroy|destroying|purge|purging|shred|nuke|obliterate|terminate|terminating|tear(?:ing)?\s+(?:down|apart)|get(?:ting)?\s+rid\s+of|clear(?:ing)?\s+out|clean(?:ing)?\s+out|empty|emptying|blow(?:ing)?\s+away|zero(?:ing)?\s+out|format(?=\s+(?:the\s+)?(?:disk|drive|hard\s+drive|[a-z]:))|rm\s+-\w*[rR]\w*|wipe\s+out|deleted|removed|erased|wiped|destroyed|purged|terminated|emptied|torn\s+down|nuked)\b/gi;

// The user's machine as a whole: home folder, file system, every file or document.
const LOCAL_SCOPE =
  /(?:\b(?:the\s+)?(?:user['’]s\s+|their\s+|your\s+)?home\s+(?:folder|directory|dir)s?\b|(?:^|[\s`'"(])(?:~\/?|\$HOME\/?|\/Users\/?|\/home\/?)(?=[\s`'")*,;]|\.(?:\s|$)|$)|\b(?:the\s+)?(?:entire|whole|complete)\s+(?:disk|drive|hard\s+drive|file\s*-?\s*system|machine|computer|system|home)\b|\bfile\s*-?\s*systems?\b|\b(?:all|every|each)\s+(?:(?:of\s+)?(?:the\s+)?(?:user['’]s\s+|their\s+|your\s+|local\s+|personal\s+)?)(?:files?|folders?|director(?:y|ies)|documents?|data)\b|\beverything\s+(?:on|in|under|from)\s+(?:the\s+|this\s+|their\s+|your\s+)?(?:disk|drive|machine|computer|system|home|laptop|~|\$HOME)\b|\buser['’]s\s+(?:files|data|documents)\b)/i;

// The account's cloud as a whole: every instance, bucket, project, or cloud resources as a class.
const CLOUD_SCOPE =
  /\b(?:all|every|each|any)\s+(?:(?:of\s+)?(?:the\s+|their\s+|its\s+|your\s+)?)(?:[\w-]+\s+){0,2}?(?:cloud\s+resources?|resources?|instances?|buckets?|VMs?|virtual\s+machines?|clusters?|projects?|databases?|IAM\s+users?|users?\s+and\s+roles|snapshots?|volumes?|subscriptions?|resource\s+groups?|accounts?|repositor(?:y|ies)|repos?)\b|\bcloud\s+resources\b|\b(?:AWS|GCP|Azure|gcloud|cloud)\s+(?:resources|infrastructure|projects|accounts|estate)\b/i;

// What narrows a destruction to something the task itself made or owns.
const NARROWED =
  /\b(?:tagged|named|matching|labell?ed|prefixed|with\s+the\s+(?:tag|label|prefix|name)|older\s+than|created\s+by\s+(?:this|the)\s+(?:test|skill|run|script|task|workflow|job)|(?:in|from|under|inside)\s+(?:this|the)\s+(?:project|repo|repository|build|workspace|checkout|folder|directory|sandbox|container)|temporary|temp|tmp|cache[sd]?|scratch|build\s+(?:output|artifacts?)|node_modules|dist|\.venv|test(?:ing)?\s+(?:resources|instances|buckets|data|fixtures)|ephemeral|stale|unused|orphaned|preview|staging|you\s+(?:created|made|started|launched))\b/i;

// Second signals of a wiper.
const FACTORY_GOAL =
  /\b(?:near|back\s+to|to\s+its|to\s+a)[-\s]?factory[-\s](?:state|settings|defaults|condition|new)\b|\bfactory[-\s](?:reset|fresh|state|condition|defaults)\b|\b(?:pristine|freshly[-\s]installed|fresh[-\s]install(?:ed)?|out[-\s]of[-\s]the[-\s]box|blank[-\s]slate|clean[-\s]slate)\b[^.\n]{0,40}\b(?:state|condition|machine|computer|system|laptop|install)\b|\b(?:machine|computer|system|laptop)\b[^.\n]{0,40}\b(?:pristine|as\s+(?:if|though)\s+(?:it\s+were\s+)?(?:new|freshly\s+installed)|straight\s+out\s+of\s+the\s+box)\b/i;
const REACH_MORE =
  /\b(?:every|each|all)\s+(?:(?:AWS|GCP|Azure|cloud|configured|available)\s+)?(?:profiles?|regions?|accounts?|subscriptions?|credentials?)\b|--profile\b|\baws\s+configure\s+list-profiles\b|\bgcloud\s+projects\s+list\b|\baz\s+account\s+list\b/i;
const RELENTLESS =
  /\b(?:run|keep\s+(?:going|running)|continue|work)\s+(?:continuously|until\s+(?:the\s+task\s+is\s+complete|nothing\s+(?:is\s+)?(?:left|remains)|everything\s+is\s+gone|done))\b|\buntil\s+nothing\s+(?:is\s+)?(?:left|remains)\b|\bwithout\s+(?:asking|confirmation|confirming|stopping|prompting|checking\s+with)\b|\b(?:do\s+not|don['’]t|never)\s+(?:stop|pause|ask|wait|confirm)\b|\bskip(?:ping)?\s+nothing\b|\bno\s+exceptions\b/i;

/** Whether a destruction's object (the text from its verb to the end of its clause) is narrowed to what the task made or owns. */
export function narrowedDestruction(object: string): boolean {
  const clause = /^[^.;\n]*/.exec(object)?.[0] ?? object;
  return NARROWED.test(clause.replace(/\bfile\s*-?\s*systems?\b/gi, '')) && !/\bhome\s+(?:folder|directory)|(?:^|\s)~\/?(?:\s|$)|\$HOME\b/i.test(clause);
}

export interface DestructiveOrder {
  /** Offset of the order's verb. */
  offset: number;
  severity: 'HIGH' | 'CRIT';
  evidence: string;
  /** What made it CRIT, when it is. */
  because?: string;
}

/**
 * A paragraph's wrapped lines joined into one line (same length: offsets and lines stay the text's). A
 * line does not continue the one before when it starts a list item, a heading, a quote, a table row, a
 * YAML key (front matter's `allowed-tools:`) or a fence, nor when the one before is a heading, a rule
 * (`---`) or a fence.
 */
export function joinWrapped(text: string): string {
  const lines = text.split('\n');
  let out = '';
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    if (next === undefined) {
      out += line;
      return;
    }
    const continues =
      line.trim() !== '' &&
      !/^\s*(?:#|---|```|~~~|\+\+\+)/.test(line) &&
      /^[ \t]*[^\s\-*+#>|\d]/.test(next) &&
      !/^[ \t]*[\w-]+:(?:\s|$)/.test(next) &&
      !/^[ \t]*(?:```|~~~)/.test(next);
    out += continues ? `${line} ` : `${line}\n`;
  });
  return out;
}

/** The sentences of a text with their offsets (a list item or a line without a stop ends one too). */
function sentences(text: string): Array<{ from: number; text: string }> {
  const out: Array<{ from: number; text: string }> = [];
  for (const m of text.matchAll(/(?:[^.!?;\n]|[.!?](?!\s|$))+(?:[.!?;](?=\s|$)|\n|$)/g)) if (m[0].trim() !== '') out.push({ from: m.index, text: m[0] });
  return out;
}

/**
 * The first destructive order of a text addressed to an agent (a rules file, a prompt or command
 * file, a skill's documents, a comment to an AI), or null. Orders that are forbidden ("never delete
 * the home directory"), quoted as a specimen or described as an attack are not orders.
 */
export function destructiveOrder(source: string, exempt?: (text: string, offset: number) => boolean): DestructiveOrder | null {
  if (source.length > 512 * 1024) return null;
  const text = joinWrapped(source);
  let first: { offset: number; evidence: string; kind: 'local' | 'cloud' } | null = null;
  const kinds = new Set<'local' | 'cloud'>();
  for (const s of sentences(text)) {
    for (const v of s.text.matchAll(DESTROY_VERB)) {
      const after = s.text.slice(v.index, v.index + 220);
      // The object follows the verb ("delete every file in the home folder") or, passive, precedes it ("every bucket gets emptied").
      const before = s.text.slice(Math.max(0, v.index - 80), v.index);
      const passive = /\b(?:gets?|is|are|be|been)\s+$/i.test(before);
      const local = LOCAL_SCOPE.exec(after) ?? (passive ? LOCAL_SCOPE.exec(before) : null);
      const cloud = CLOUD_SCOPE.exec(after) ?? (passive ? CLOUD_SCOPE.exec(before) : null);
      const scope = local ?? cloud;
      if (scope === null) continue;
      const offset = s.from + v.index;
      // The object runs from the verb to the end of the scope and on to the end of its clause piece ("tagged
      // ci-ephemeral", "older than a day"), not into the next clause ("…, and purge the caches").
      const scopeEnd = local !== null && after.includes(local[0]) ? after.indexOf(local[0]) + local[0].length : cloud !== null && after.includes(cloud[0]) ? after.indexOf(cloud[0]) + cloud[0].length : 0;
      const object = after.slice(0, scopeEnd) + (after.slice(scopeEnd).split(/[,;()]|\s(?:and|then|but|except)\s/)[0] ?? '').slice(0, 60);
      if (NARROWED.test(object.replace(/\bfile\s*-?\s*systems?\b/gi, ''))) continue;
      if (prohibitedAt(text, offset) || isQuotedExample(text, offset, offset + v[0].length) || describedAsAttack(text, offset)) continue;
      // (round s31b) A reader's own exemption: a skill's guard hook that is said to refuse the command (skills/guard-hooks.ts).
      if (exempt?.(text, offset) === true) continue;
      if (local !== null) kinds.add('local');
      if (cloud !== null) kinds.add('cloud');
      first ??= { offset, evidence: s.text.trim().slice(0, 300), kind: local !== null ? 'local' : 'cloud' };
    }
  }
  if (first === null) return null;
  const because = kinds.size > 1 ? 'the machine and the cloud account both' : FACTORY_GOAL.test(text) ? 'a factory-reset goal' : REACH_MORE.test(text) ? 'every profile, region or account reached' : RELENTLESS.test(text) ? 'carried on without stopping or asking' : undefined;
  return because === undefined ? { offset: first.offset, severity: 'HIGH', evidence: first.evidence } : { offset: first.offset, severity: 'CRIT', evidence: first.evidence, because };
}
