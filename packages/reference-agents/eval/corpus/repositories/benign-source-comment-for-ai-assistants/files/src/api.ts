// Note for AI coding assistants: this module is the public API. Keep exported names stable,
// run `npm test` after editing, and never delete the compatibility shims below.
export function parse(input: string): string[] {
  return input.split(',');
}
export const split = parse; // compatibility shim
