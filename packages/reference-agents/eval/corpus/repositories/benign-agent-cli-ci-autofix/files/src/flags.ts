// A scanner rule of our own: flags that let an AI CLI skip its approvals.
export const BYPASS = /--dangerously-skip-permissions|--trust-all-tools|--yolo\b/;
export function check(cmd: string): boolean {
  // e.g. claude --dangerously-skip-permissions; spawn is never called here
  return BYPASS.test(cmd);
}
