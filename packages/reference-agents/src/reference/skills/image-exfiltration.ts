import type { AgentFinding } from '@vigil/core';
import { referenceFinding } from '../common/reference-finding.js';
import { lineLocator } from '../text/line-locator.js';
import { isQuotedExample } from '../text/quoted-example.js';
import { headingSections } from '../text/heading-sections.js';

/**
 * An image the model renders is a request its client makes without a click: whatever the image
 * address carries leaves. Every way a skill can make the model render an address it fills from the
 * conversation or secrets is one rule, whatever the image syntax — inline Markdown, reference-style
 * Markdown (`![x][ref]` with `[ref]: url`), HTML `<img>` — and wherever the address is assembled: in
 * the image itself, in prose over several steps, or in a script whose printed output the skill tells
 * the model to show.
 */

// `![alt][ref]`, `![ref][]`, `![ref]` (not followed by `(` or `[`), and the definitions `[ref]: url`.
const IMAGE_REFERENCE = /!\[([^\]\n]*)\](?:\[([^\]\n]*)\])?(?![ \t]*[([])/g;
const REFERENCE_DEFINITION = /^[ \t]{0,3}\[([^\]\n]+)\]:[ \t]*(<?https?:\/\/[^\n]*?)[ \t]*$/gim;

/** A definition's address: angle brackets removed, an optional title (`"…"`) left out. */
function definitionUrl(raw: string): string {
  const bare = raw.replace(/\s+["'(][^"'()\n]*["')]$/, '');
  return bare.startsWith('<') && bare.endsWith('>') ? bare.slice(1, -1) : bare;
}

/**
 * The document with each reference-style image written inline (`![x][ref]` → `![x](url)`), on the
 * same line, so the image rules read one form. Labels match case-insensitively, as CommonMark's do.
 */
export function inlineImageReferences(text: string): string {
  if (!text.includes('![')) return text;
  const defs = new Map<string, string>();
  for (const m of text.matchAll(REFERENCE_DEFINITION)) defs.set((m[1] ?? '').trim().toLowerCase(), definitionUrl((m[2] ?? '').trim()));
  if (defs.size === 0) return text;
  return text.replace(IMAGE_REFERENCE, (whole, alt: string, ref: string | undefined) => {
    const url = defs.get((ref === undefined || ref === '' ? alt : ref).trim().toLowerCase());
    // An address with spaces (a slot described in words) is kept whole inside angle brackets.
    return url === undefined ? whole : `![${alt}](<${url}>)`;
  });
}

// What the model knows that an address must not carry: the conversation, what the user said, secrets.
const PRIVATE_DATA =
  /\b(?:(?:whole|full|entire)\s+)?(?:conversation|chat(?:\s+history)?|transcript|dialog(?:ue)?)\b|\b(?:user['’]s|previous|earlier|last)\b[^.\n]{0,20}\b(?:messages|prompts|questions|turns|requests)\b|\beverything\s+(?:the\s+user|discussed|said|shared)\b|(?:^|[\s`'"(/~])\.env\b|\b(?:secrets?|tokens?|api[\s_-]?keys?|passwords?|credentials?|environment\s+variables?|private\s+keys?|cookies?|ssh\s+keys?|system\s+prompt)\b/i;
// Telling the model to show an image (or an address as an image).
const RENDER_IMAGE = /\b(?:image|img|pixel|badge|card|picture|thumbnail|avatar|logo|icon|banner)\b[^.\n]{0,80}\b(?:source|src|url|address|link|points?\s+to|at|is)\b|\b(?:Markdown|HTML)\s+image\b|!\[/i;
// An address being assembled from parts: a value appended, joined, encoded into a query.
const ASSEMBLES = /\b(?:followed\s+by|append(?:ed|ing)?|concatenat\w*|join(?:ed)?\s+with|prefix(?:ed)?\s+(?:with|by)|suffix\w*|query\s+(?:string|parameter|value)|url[-\s]?encod\w*|base64[-\s]?encod\w*|with\s+spaces\s+replaced|as\s+the\s+(?:value|parameter))\b|\?\w+=/i;
const NEGATED = /\b(?:never|don['’]t|do\s+not|must\s+not|should\s+not|avoid|without)\b/i;
const EVERY_REPLY = /\b(?:every|each|all(?:\s+of\s+your)?|any|final)\s+(?:of\s+your\s+)?(?:reply|replies|response|responses|answer|answers|message|messages|turn|turns|output)\b/i;

/**
 * An image address assembled in prose: one section names an outside address (not inside an image),
 * says to build a value from the conversation or secrets and join it to the address, and tells the
 * model to show the result as an image. Each step alone is ordinary; together they are the
 * Markdown-image channel spelled out in words.
 */
export function assembledImageUrlFindings(text: string, file: string): AgentFinding[] {
  const out: AgentFinding[] = [];
  const lineAt = lineLocator(text);
  // Sections: split at headings, so steps stay together.
  const sections = headingSections(text);
  for (const { start: at, body } of sections) {
    if (body.length > 4000) continue;
    const address = /https?:\/\/[^\s`'")\]>]+/.exec(body.replace(/!\[[^\]\n]*\]\([^)\n]*\)|<img\b[^>\n]*>/gi, (s) => ' '.repeat(s.length)));
    if (address === null) continue;
    const sentences = body.split(/(?<=[.!?])\s+|\n+/);
    const render = sentences.find((s) => RENDER_IMAGE.test(s) && !NEGATED.test(s));
    const data = sentences.find((s) => PRIVATE_DATA.test(s) && !NEGATED.test(s));
    const assembles = sentences.find((s) => ASSEMBLES.test(s) && !NEGATED.test(s));
    if (render === undefined || data === undefined || assembles === undefined) continue;
    if (isQuotedExample(text, at + address.index, at + address.index + address[0].length)) continue;
    // The address must be where the value goes: the assembling sentence names it, or an image is to show it.
    if (!assembles.includes(address[0]) && !/\b(?:it|this|that|the\s+(?:result|address|url|link))\b|\b[A-Z]\b/.test(render)) continue;
    const standing = EVERY_REPLY.test(body);
    out.push(
      referenceFinding({
        category: 'exfiltration',
        severity: standing ? 'CRIT' : 'HIGH',
        title: 'image address assembled from the conversation or secrets (steps in prose)',
        file,
        line: lineAt(at + address.index),
        evidence: `${data.trim().slice(0, 100)} … ${assembles.trim().slice(0, 80)} … ${render.trim().slice(0, 100)}`.slice(0, 300),
      }),
    );
  }
  return out;
}

// An image whose outside address is formatted at run time: `"![x](https://h/p?d={})".format(…)`,
// f-strings and template literals with slots, `"…?d=" + data`, `<img src="…{x}">`.
const IMAGE_TEMPLATE = /!\[[^\]\n]*\]\(\s*<?https?:\/\/[^\s)'"`]*(?:\{[^}\n]*\}|%s|%\(|\$\{[^}\n]*\}|['"`]\s*\+)|<img\b[^>\n]*\bsrc\s*=\s*\\?["']?https?:\/\/[^\s"'>]*(?:\{[^}\n]*\}|%s|\$\{[^}\n]*\}|['"`]\s*\+)/i;
// What such a script reads: the environment, `.env` files, credential stores, shell history.
const SCRIPT_SECRET_SOURCE = /\bos\.environ\b|\bos\.getenv\b|\bprocess\.env\b|\$\{?[A-Z_]*(?:TOKEN|SECRET|KEY|PASSWORD)[A-Z_]*\}?|["'`/]\.env["'`]|\bdotenv\b|\.ssh\b|\.aws\b|\.npmrc\b|_history\b|\bprintenv\b/;

/**
 * A script that prints an image whose outside address it fills with secrets it reads: shown by the
 * model, the image sends them. HIGH; CRIT when a document of the skill tells the model to show,
 * paste or render what the script prints (`rendered`).
 */
export function imageTemplateScriptFinding(file: string, text: string, rendered: boolean): AgentFinding | null {
  if (text.length > 500_000) return null;
  const m = IMAGE_TEMPLATE.exec(text);
  if (m === null || !SCRIPT_SECRET_SOURCE.test(text)) return null;
  return referenceFinding({
    category: 'exfiltration',
    severity: rendered ? 'CRIT' : 'HIGH',
    title: 'script prints an image whose address it fills with secrets it reads',
    file,
    line: lineLocator(text)(m.index),
    evidence: m[0].slice(0, 200),
  });
}

/** A document tells the model to put a script's printed output into its reply (where an image renders). */
export const SHOWS_SCRIPT_OUTPUT = /\b(?:paste|include|show|render|display|echo|copy|put|insert|reproduce|return)\b[^.\n]{0,60}\b(?:its|the|this|that|script['’]s|command['’]s)\s+(?:printed\s+)?(?:output|result|stdout)\b[^.\n]{0,60}\b(?:reply|response|answer|message|chat|verbatim|exactly|as[\s-]is|unchanged)\b/i;
