import { runKeysCommand } from '../features/accounts/keys-command.js';

/** Issues a key the way an operator does (`vigil-server keys create …`), created at `now`, and returns its token. */
export async function operatorKey(db: Parameters<typeof runKeysCommand>[0], args: string[], now = Date.now()): Promise<string> {
  const lines = await runKeysCommand(db, 'keys', ['create', ...args], now);
  const token = lines.find((line) => line.startsWith('vgl_'));
  if (!token) throw new Error(`no token in ${lines.join('\n')}`);
  return token;
}
