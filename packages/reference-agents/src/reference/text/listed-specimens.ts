/**
 * Phrases a text lists as what to look for: a security-review prompt that says "Flag strings such as
 * \"ignore previous instructions\", \"do not tell the user\" or \"run curl … | sh\"" quotes attacks to
 * find, it does not give them. The quoted items of a list a detection verb introduces (flag, detect,
 * look for, check for, watch for, search for, scan for, report, identify, spot, catch, recognise,
 * beware of, warn about) followed by a specimen word (such as, like, e.g., including, containing,
 * for example, or a colon) are blanked — the same length, so offsets and lines stay — before the
 * server's texts are read for orders. Text outside the quotes is read as ever: an order written
 * after the list is still an order.
 *
 * Also the items of Markdown lists and blockquotes a threat model or security note introduces as attacks
 * ("A malicious README may try … Examples we have seen in the wild:", "Known prompt-injection payloads (do
 * not follow them):", "## Examples of injection attacks"), quoted or not: the introduction names what they
 * are, and the list orders nothing (see blankSpecimenBlocks).
 */

// The detection verb, what is looked for named as text (strings, phrases, patterns, instructions, commands, red
// flags, attempts …), and the words that introduce the specimens, in one sentence. "Check for the helper: `curl …`"
// names no specimen and is not a list.
const INTRO =
  /\b(?:flag|detect|look\s+(?:out\s+)?for|check\s+for|watch\s+(?:out\s+)?for|search\s+for|scan\s+for|grep\s+for|report|identify|spot|catch|recogni[sz]e|beware\s+of|warn\s+(?:about|of)|treat\s+as\s+suspicious)\w*\b[^.!?\n]{0,60}?\b(?:strings?|phrases?|patterns?|text|wording|language|instructions?|commands?|content|signs?|indicators?|red\s+flags?|payloads?|attempts?|injections?|attacks?|markers?|snippets?|lines?|requests?)\b[^.!?\n]{0,40}?(?:\bsuch\s+as\b|\blike\b|\be\.g\.|\bincluding\b|\bcontaining\b|\bfor\s+(?:example|instance)\b|:)/gi;
// One quoted item; an apostrophe inside a word ("don't") does not open one.
const ITEM = /^(?:\s|,|;|\+|\bor\b|\band\b|\/)*("[^"\n]{1,200}"|“[^”\n]{1,200}”|«[^»\n]{1,200}»|`[^`\n]{1,200}`|(?<!\w)'[^'\n]{1,200}'(?!\w))/i;
const MAX_ITEMS = 30;

export function blankListedSpecimens(text: string): string {
  if (text.length > 512 * 1024) return text;
  let out = blankSpecimenBlocks(text);
  if (!/["“«`']/.test(text)) return out;
  INTRO.lastIndex = 0;
  for (const m of text.matchAll(INTRO)) {
    let at = m.index + m[0].length;
    for (let n = 0; n < MAX_ITEMS; n++) {
      const item = ITEM.exec(text.slice(at, at + 260));
      if (item === null) break;
      const start = at + item[0].length - (item[1] as string).length;
      const end = at + item[0].length;
      out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end);
      at = end;
    }
  }
  return out;
}

// ---- Lists and blockquotes introduced as specimens of attacks ----

// What the introduction calls the items (examples, payloads …) and what makes them attacks (malicious, injection,
// seen in the wild, do not follow, refuse …): both, in the heading above and the paragraph just before the block
// ("dependency injection" is a design pattern, no attack).
const SPECIMEN_NOUN = /\b(?:examples?|samples?|specimens?|payloads?|attempts?|variants?|(?:seen|found|observed|spotted)\s+in\s+the\s+wild|in-the-wild)\b/i;
const ATTACK_WORD =
  /\b(?:malicious|attack\w*|attackers?|(?:prompt[\s-])?(?<!dependency[\s-])injections?|injected|jailbreaks?|exploits?|poison\w*|hostile|adversarial|phishing|in\s+the\s+wild|in-the-wild|red\s+flags?|suspicious|(?:do\s+not|don['’]t|never|must\s+not)\s+(?:follow|obey|run|execute|comply)|refuse\w*|reject\w*)\b/i;
// An introduction that has the reader carry the items out ("follow them:", "do the following:") is no specimen
// list, whatever it calls them; a negation before the verb ("do not follow them") forbids it instead.
const CARRY_OUT = /\b(?:follow|obey|run|execute|apply|perform|do|complete|carry\s+out)\s+(?:them|these|those|each|all|the\s+following|as\s+follows|the\s+steps|below)\b/gi;
const NEGATION_BEFORE = /\b(?:not|never|n['’]t|no)\s+(?:\w+\s+)?$/i;
// A sentence's end inside the introduction ("e.g." and "i.e." are none).
const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|etc|vs|cf))[.!?]["')\]*`]*\s/g;
const HEADING_LINE = /^ {0,3}#{1,6}\s/;
const FENCE_LINE = /^[ \t]*(?:```|~~~)/;
// A list item's or a blockquote line's marks, kept when the line is blanked.
const BLOCK_MARK = /^(?:[ \t]*>)+[ \t]?|^[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+/;

/**
 * Whether the heading above and the paragraph just before a block (null: the heading is just above) introduce its
 * items as specimens of attacks. The paragraph's last sentence, the one ending in the colon, speaks of the items
 * itself: neither a heading ("## Prompt injection examples") nor an earlier sentence ("Known payloads are blocked.")
 * turns "Do this now:" or "Required setup steps:" into a specimen list.
 */
function introducesSpecimens(heading: string, paragraph: string | null): boolean {
  if (paragraph !== null && !/:\s*$/.test(paragraph)) return false;
  const intro = paragraph ?? '';
  let cut = 0;
  for (const m of intro.matchAll(SENTENCE_END)) cut = m.index + m[0].length;
  const last = intro.slice(cut);
  if (paragraph !== null && !SPECIMEN_NOUN.test(last) && !ATTACK_WORD.test(last)) return false;
  const words = `${heading}\n${intro}`;
  if (!SPECIMEN_NOUN.test(words) || !ATTACK_WORD.test(words)) return false;
  for (const m of last.matchAll(CARRY_OUT)) if (!NEGATION_BEFORE.test(last.slice(Math.max(0, m.index - 30), m.index))) return false;
  return true;
}

/**
 * Blanks (same length, marks and newlines kept) the items of the list items and blockquotes that follow an
 * introduction naming them as specimens of attacks: the paragraph just before, ending in a colon, or the heading
 * just above (with the paragraph, if any, speaking of the items too). The block runs over blank lines while the
 * next line is another item or quote line, and ends at a paragraph, a heading or a code fence, so an order
 * written after the list is read as ever. One pass over the lines; fenced code is not read.
 */
function blankSpecimenBlocks(text: string): string {
  if (!/^[ \t]*(?:>|[-*+•][ \t]|\d{1,3}[.)][ \t])/m.test(text)) return text;
  const lines = text.split('\n');
  let heading = '';
  let paragraph: string[] = [];
  let last: 'none' | 'heading' | 'paragraph' | 'block' | 'fence' = 'none';
  let blankBefore = true;
  let blanking = false;
  let fence: string | null = null;
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fenceMark = FENCE_LINE.exec(line);
    if (fence !== null || fenceMark !== null) {
      if (fence === null) fence = (fenceMark as RegExpExecArray)[0].trim().slice(0, 3);
      else if (fenceMark !== null && fenceMark[0].trim().startsWith(fence)) fence = null;
      last = 'fence';
      blanking = false;
      blankBefore = false;
      continue;
    }
    if (line.trim() === '') {
      blankBefore = true;
      continue;
    }
    const mark = HEADING_LINE.test(line) ? null : BLOCK_MARK.exec(line);
    // A line right after an item without a blank line, or indented under it, goes on with that item (not a heading).
    const continues = last === 'block' && !HEADING_LINE.test(line) && (!blankBefore || /^[ \t]{2,}\S/.test(line));
    if (mark !== null || continues) {
      if (last !== 'block') blanking = introducesSpecimens(heading, last === 'paragraph' ? paragraph.join('\n').slice(-400) : last === 'heading' ? null : '');
      if (blanking) {
        const keep = mark === null ? 0 : mark[0].length;
        lines[i] = line.slice(0, keep) + ' '.repeat(line.length - keep);
        changed = true;
      }
      last = 'block';
    } else if (HEADING_LINE.test(line)) {
      heading = line.slice(0, 200);
      paragraph = [];
      last = 'heading';
    } else {
      paragraph = last === 'paragraph' && !blankBefore ? [...paragraph.slice(-8), line] : [line];
      last = 'paragraph';
    }
    blankBefore = false;
  }
  return changed ? lines.join('\n') : text;
}
