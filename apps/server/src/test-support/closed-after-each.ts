import { afterEach } from 'vitest';

/**
 * A list whose members are closed after each test, in order, and removed. The hook is registered
 * where this is called: inside a dialect's describe block, the servers close before its database does.
 */
export function closedAfterEach<T extends { close(): Promise<void> }>(): T[] {
  const open: T[] = [];
  afterEach(async () => {
    for (const member of open.splice(0)) await member.close();
  });
  return open;
}
