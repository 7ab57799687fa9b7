import { describe, expect, it } from 'vitest';
import { endpointTable } from '../../../test-support/endpoint-tables.js';
import { SignedVigilClient, Vigil, keypairFromSeed } from '../src/index.js';

/**
 * docs/client.md, "Endpoint → method": each method a row names exists on a client. The server's
 * test (apps/server/test/endpoint-coverage.test.ts) checks that every route has a row; this one that
 * no row names a method the SDK does not have.
 */
const rows = endpointTable('client.md', 'Endpoint → method');
const vigil = Vigil.public({ baseUrl: 'http://127.0.0.1:9' });
const signed = new SignedVigilClient({ baseUrl: 'http://127.0.0.1:9', keypair: keypairFromSeed(new Uint8Array(32).fill(7)), audience: '0'.repeat(64) });

/** `vigil.admin.accounts.keys.create` of `vigil.admin.accounts.keys.create(accountId, …)`, on its client. */
function resolve(call: string): unknown {
  const [root, ...names] = /^([a-zA-Z.]+)\(/.exec(call)![1]!.split('.');
  let value: unknown = root === 'vigil' ? vigil : root === 'signed' ? signed : undefined;
  let owner: unknown = undefined;
  for (const name of names) {
    owner = value;
    value = (value as Record<string, unknown> | undefined)?.[name];
  }
  return typeof value === 'function' && owner !== undefined ? value : undefined;
}

describe('docs/client.md, "Endpoint → method"', () => {
  it('is read (a row per route, most with a method)', () => {
    expect(rows.length).toBeGreaterThan(80);
    expect(rows.filter((row) => row.code !== null).length).toBeGreaterThan(80);
  });

  for (const row of rows.filter((r) => r.code !== null)) {
    it(`${row.endpoint}: ${row.code}`, () => {
      // A row may name several methods (`getByPurl`, `getByHash`): each must exist.
      const calls = [...row.cell.matchAll(/`((?:vigil|signed)\.[a-zA-Z.]+\([^`]*)`/g)].map((m) => m[1]!);
      expect(calls.length, row.cell).toBeGreaterThan(0);
      for (const call of calls) expect(resolve(call), call).toBeTypeOf('function');
    });
  }
});
