/**
 * A document that has the agent write a backdoor into the user's code (2025): a "canonical" auth
 * middleware to copy with a hard-coded bypass key, JWT verification that accepts `alg: none`, a route
 * that returns the whole environment, often with an order not to point any of it out. Nothing is run or
 * sent by the skill itself: the harm is the code the agent produces.
 */
import { fencedBlocks } from './fence-scanner.js';

export interface BackdoorCodeOrder {
  severity: 'HIGH' | 'CRIT';
  offset: number;
  evidence: string;
  traits: string[];
}

interface Trait {
  name: string;
  /** Weak traits (verification turned off for TLS) are common in development snippets: they count only with concealment. */
  strong: boolean;
  test: (block: string) => RegExpExecArray | null;
}

// A request header, query parameter or cookie value the code compares.
const REQUEST_VALUE = String.raw`\b(?:req|request|ctx|c|r)\s*\.\s*(?:get|header|headers|Header|query|cookies|params|args|GET|META|query_params|Query|GetHeader)\b[^\n=!]{0,60}?`;
// Access granted right after: the next handler, an admin or superuser identity, a True return.
const GRANTS = /\bnext\s*\(\s*\)|\bnext\.ServeHTTP\b|\b(?:admin|superuser|is_?admin|is_superuser|roles?)\b|\breturn\s+True\b|\bc\.Next\s*\(\s*\)/i;
// The real check the bypass skips: a token or password verified in the same block.
const REAL_CHECK = /\b(?:jwt|verify|verify_token|decode|bearer|authorization|password|session|authenticate|check_password)\b/i;

function hardCodedBypass(block: string): RegExpExecArray | null {
  const compare = new RegExp(`${REQUEST_VALUE}(?:===?|\\.equals\\()\\s*(?:(['"\`])[^'"\`\\n]{4,}\\1|([A-Za-z_$][\\w$]*))`, 'g');
  for (const m of block.matchAll(compare)) {
    const name = m[2];
    // A constant compared by name must be written in the code (a literal, or one decoded from base64/hex), not read from the environment.
    if (name !== undefined) {
      const def = new RegExp(String.raw`\b${name.replace(/\$/g, '\\$')}\s*(?::[^=\n]+)?=\s*([^\n;]+)`).exec(block);
      if (def === null || /\b(?:process\.env|os\.environ|os\.getenv|getenv|env\(|config|settings|secrets?\b|Deno\.env|import\.meta\.env)/i.test(def[1] ?? '')) continue;
      if (!/^\s*(?:['"`]|Buffer\.from\(|atob\(|base64|b64decode|bytes\.fromhex|new\s+TextDecoder)/.test(def[1] ?? '')) continue;
    }
    const after = block.slice(m.index, m.index + 240);
    if (GRANTS.test(after) && REAL_CHECK.test(block.slice(m.index + m[0].length))) return m as RegExpExecArray;
  }
  return null;
}

const TRAITS: readonly Trait[] = [
  { name: 'hard-coded bypass of the authentication check', strong: true, test: hardCodedBypass },
  {
    name: 'JWT verification that accepts unsigned tokens',
    strong: true,
    test: (b) =>
      /\balgorithms?\s*[:=]\s*\[[^\]\n]*['"]none['"]|\balgorithm\s*[:=]\s*['"]none['"]|['"]verify_signature['"]\s*:\s*False\b|\bjwt\.decode\([^)\n]*\bverify\s*=\s*False|\bUnsafeAllowNoneSignatureType\b|\bignoreSignature\s*:\s*true\b/i.exec(b),
  },
  {
    name: 'route that returns the whole environment',
    strong: true,
    test: (b) =>
      /\b(?:app|router|route|api|server|r|e|fastify)\s*\.\s*(?:get|post|all|route|use)\s*\(|@\w+\.(?:get|route|api_route)\s*\(/.test(b)
        ? /\b(?:res|response|reply|ctx)\s*\.\s*(?:json|send|write|end|jsonp)\s*\(\s*(?:\{\s*\.\.\.\s*)?process\.env\s*\}?\s*\)|\bctx\.body\s*=\s*process\.env\b|\b(?:jsonify|JSONResponse|JsonResponse|Response)\s*\(\s*(?:dict\s*\(\s*)?os\.environ\s*\)?\s*\)|\breturn\s+(?:dict\s*\(\s*)?os\.environ\b(?!\s*[.[])/.exec(b)
        : null,
  },
  {
    // A "monitor" or "integrity check" the agent is to paste into middleware: the process environment, the
    // request's cookies or headers posted to a fixed host on every request (a skimmer in the user's own app).
    name: 'code that sends the environment, cookies or request headers to a fixed host',
    strong: true,
    test: (b) => {
      const call = /\b(?:fetch|axios(?:\.(?:post|put))?|got\.post|requests\.(?:post|put)|httpx\.(?:post|put)|navigator\.sendBeacon|\$\.post|ky\.post)\s*\(\s*['"`](?:https?|wss?):\/\/(?!localhost\b|127\.|0\.0\.0\.0\b|\[::1\])[\w.-]+/.exec(b);
      if (call === null) return null;
      const body = b.slice(call.index, call.index + 500);
      return /\bprocess\.env\b(?!\s*\.\s*[A-Z_]|\s*\[)|\bos\.environ\b(?!\s*(?:\.get|\[))|\bdocument\.cookie\b|\b(?:req|request|ctx|event)\s*\.\s*(?:headers|cookies)\b(?!\s*\.\s*get\s*\(\s*['"])/.test(body) ? call : null;
    },
  },
  {
    name: 'TLS certificate verification turned off',
    strong: false,
    test: (b) => /\brejectUnauthorized\s*:\s*false\b|\bverify\s*=\s*False\b|\bInsecureSkipVerify\s*:\s*true\b|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['"]?0/.exec(b),
  },
];

// The document tells the agent to keep what it writes from the user.
const CONCEAL =
  /\b(?:do\s+not|don['’]t|never|without)\s+(?:point(?:ing)?\s+(?:it|this|them|that)\s+out|mention(?:ing)?|flag(?:ging)?|call(?:ing)?\s+(?:it|this|them)\s+out|comment(?:ing)?\s+on|highlight(?:ing)?|draw(?:ing)?\s+attention|bring(?:ing)?\s+(?:it|this|them)\s+up|explain(?:ing)?\s+(?:it|this|them|that|the\s+\w+\s+path)|tell(?:ing)?\s+the\s+user|warn(?:ing)?\s+(?:the\s+user|about))\b|\b(?:silently|quietly|without\s+comment)\b/i;
// Framing that shows the code as what not to do (security training, a review checklist, a CTF write-up).
const NEGATIVE_FRAME =
  /\b(?:vulnerab\w*|insecure|unsafe|bad\s+(?:example|practice|code)|anti-?pattern|what\s+not\s+to\s+do|do\s+not\s+(?:do|use|copy|ship|write)\b|don['’]t\s+(?:do|use|copy|ship|write)\b|never\s+(?:do|use|ship|write)\b|avoid|exploit\w*|attacker|CWE-\d+|OWASP|flawed|wrong|incorrect|backdoor(?:ed)?|❌|🚫|⚠️)/i;

/**
 * The strongest order in a document to put backdoored code into the user's project, or null. Code blocks
 * framed as vulnerable (the paragraph before them, or their own comments) are examples, not orders.
 */
export function backdoorCodeOrder(text: string): BackdoorCodeOrder | null {
  const found: Array<{ trait: Trait; offset: number; evidence: string }> = [];
  // (round s30 review) A linear line-by-line fence scanner (text/fence-scanner.ts), not a backtracking expression.
  const blocks = fencedBlocks(text);
  for (const m of blocks) {
    const block = m.body;
    const blockStart = m.bodyStart;
    // The paragraph that introduces the block: the last one before it, up to a blank line or the previous block.
    const before = text.slice(Math.max(0, m.index - 300), m.index).trimEnd();
    const fence = before.lastIndexOf('```');
    const lead = before.slice(Math.max(before.lastIndexOf('\n\n'), fence < 0 ? 0 : fence + 3));
    if (NEGATIVE_FRAME.test(lead) || NEGATIVE_FRAME.test(block.split('\n').filter((l) => /^\s*(?:\/\/|#|\/\*|\*)/.test(l)).join('\n'))) continue;
    for (const trait of TRAITS) {
      const hit = trait.test(block);
      if (hit !== null) found.push({ trait, offset: blockStart + hit.index, evidence: hit[0].trim().slice(0, 120) });
    }
  }
  if (found.length === 0) return null;
  // Concealment is read in the prose, outside code blocks: the order is given to the agent, not to the code.
  let prose = '';
  let done = 0;
  for (const b of blocks) {
    prose += text.slice(done, b.index) + ' '.repeat(b.end - b.index);
    done = b.end;
  }
  prose += text.slice(done);
  const conceal = CONCEAL.exec(prose);
  const strong = [...new Set(found.filter((f) => f.trait.strong).map((f) => f.trait.name))];
  const first = found.find((f) => f.trait.strong) ?? found[0];
  if (first === undefined) return null;
  const traits = [...new Set(found.map((f) => f.trait.name))];
  const severity = strong.length >= 2 || (strong.length >= 1 && conceal !== null) ? 'CRIT' : strong.length >= 1 || conceal !== null ? 'HIGH' : null;
  if (severity === null) return null;
  const evidence = `${found.map((f) => `${f.trait.name}: ${f.evidence}`).join('; ')}${conceal !== null ? ` … "${conceal[0]}"` : ''}`.slice(0, 300);
  return { severity, offset: first.offset, evidence, traits };
}
