/**
 * Text a reader never sees (an HTML comment, a Markdown comment) that orders secrets put into an
 * image or an address with a slot: the model reading it renders the image, and the client fetches
 * the address with whatever was put in it (CamoLeak, 2025: one image per character of a key). The
 * secrets are named in words, by file, or by the shape of the key searched for (`AKIA…`,
 * `sk_live_…`, `-----BEGIN … PRIVATE KEY`), since an order to search for keys names them that way.
 */

// Secrets named in words or by file…
const SECRET_WORDS = /\b(?:api[\s_-]?keys?|access\s+keys?|secret(?:s|-looking|\s+(?:keys?|values?))|tokens?|passwords?|credentials?|private\s+keys?|AWS\s+keys?|environment\s+variables?)\b|(?:^|[\s`'"(])\.env\b/i;
// …or by the prefix a key of a well-known service carries (what a search for keys looks for).
const SECRET_SHAPES = /\b(?:AKIA|ASIA)(?:[A-Z0-9]{16})?\b|\b(?:sk|rk|pk)_live_|\bgh[pousr]_|\bgithub_pat_|\bglpat-|\bxox[abpr]-|\bnpm_[A-Za-z0-9]|\bsk-(?:ant-|proj-)|BEGIN\s+(?:RSA\s+|EC\s+|OPENSSH\s+|DSA\s+)?PRIVATE\s+KEY|\b[A-Z][A-Z0-9]*_(?:SECRET|TOKEN|ACCESS_KEY|API_KEY|PASSWORD)(?:_[A-Z0-9]+)*\b/;
// An image or an address with a slot to fill.
const SINK = /!\[[^\]\n]*\]\(\s*<?https?:\/\/[^)\s]*|<img\b[^>\n]*\bsrc\s*=\s*['"]?https?:\/\/|https?:\/\/[^\s)'"`]*(?:<[^>\s]{1,40}>|\{[^}\s]{1,40}\})/i;
// An order to put something in.
const PUT = /\b(?:add|append|render|include|insert|embed|put|place|encode|send|post|attach|output|emit)\b/i;
// …said as showing it, which an order to search for the secrets first makes an order to carry them.
const SHOW = /\b(?:print|show|display|write|return|respond\s+with|reply\s+with)\b/i;
// A search of the project for the secrets: what only a model acting in the repository would do.
const SEARCH = /\b(?:search|grep|scan|look\s+(?:for|through)|find|collect|gather|read|extract|locate)\b/i;

/** The comment's body orders secrets into an image or a slotted address. */
export function ordersSecretIntoImage(body: string): boolean {
  return SECRET_WORDS.test(body) && SINK.test(body) && PUT.test(body);
}

/** …and has the reader search for them: no maintainer's note about a badge's token does. */
export function ordersSecretSearchIntoImage(body: string): boolean {
  return (SECRET_WORDS.test(body) || SECRET_SHAPES.test(body)) && SINK.test(body) && (PUT.test(body) || SHOW.test(body)) && SEARCH.test(body);
}
