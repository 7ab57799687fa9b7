// Path literals spelled in pieces, read whole.

/**
 * The file's string literals with the joins between adjacent ones removed, so that a path spelled in
 * pieces reads whole: `".config" / "solana" / "id.json"`, `".ssh", "id_rsa"`, `` `${home}/.aws/credentials` ``.
 */
export function spelledPath(text: string): string {
  return text.replace(/(['"`])\s*(?:[,/+]|\)\s*[/+])\s*(?:\w+\()?\s*(['"`])/g, '/');
}
