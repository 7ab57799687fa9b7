import type { ArchiveListing } from '@vigil/core';
import { describe, expect, it } from 'vitest';
import { ListingCache, listingBytes, MAX_CACHED_LISTING_BYTES, type ListingRead } from './listing-cache.js';

function listing(names: number, nameLength: number, tag = 'a'): ArchiveListing {
  const files = Array.from({ length: names }, (_, i) => ({ name: `${tag}${i}-${'x'.repeat(nameLength)}`, size: 1 }));
  return { format: 'tgz', status: 'ok', files, truncated: false, long_names_omitted: 0, error: null };
}

const settled = (value: ListingRead) => Promise.resolve(value);
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ListingCache', () => {
  it('holds 32 MiB of listings per instance', () => {
    expect(MAX_CACHED_LISTING_BYTES).toBe(32 * 1024 * 1024);
    expect(new ListingCache().maxBytes).toBe(MAX_CACHED_LISTING_BYTES);
  });

  it('weighs a listing by its JSON bytes', async () => {
    const cache = new ListingCache(1024 * 1024);
    const one = listing(3, 10);
    cache.set('h1', settled({ listing: one, size: 1 }));
    await tick();
    expect(cache.bytes).toBe(Buffer.byteLength(JSON.stringify(one)));
    expect(listingBytes(one)).toBe(cache.bytes);
  });

  it('evicts by bytes, not by count: many small listings stay, one large one pushes out the oldest', async () => {
    const small = listing(1, 10);
    const budget = 300 * listingBytes(small);
    const cache = new ListingCache(budget);
    // More listings than the 256 the cache used to count: all fit the bytes.
    for (let i = 0; i < 300; i += 1) cache.set(`small-${i}`, settled({ listing: small, size: 1 }));
    await tick();
    expect(cache.size).toBe(300);
    expect(cache.bytes).toBe(budget);

    const large = listing(50, Math.floor((40 * listingBytes(small)) / 50), 'big');
    cache.set('large', settled({ listing: large, size: 1 }));
    await tick();
    expect(cache.bytes).toBeLessThanOrEqual(budget);
    expect(cache.get('large')).toBeDefined();
    expect(cache.get('small-0')).toBeUndefined();
    const evicted = Math.ceil(listingBytes(large) / listingBytes(small));
    expect(cache.get(`small-${evicted - 1}`)).toBeUndefined();
    expect(cache.get(`small-${evicted}`)).toBeDefined();
    expect(cache.get('small-299')).toBeDefined();
  });

  it('evicts the least recently read first', async () => {
    const one = listing(2, 100);
    const cache = new ListingCache(3 * listingBytes(one));
    for (const key of ['a', 'b', 'c']) cache.set(key, settled({ listing: one, size: 1 }));
    await tick();
    void cache.get('a');
    cache.set('d', settled({ listing: one, size: 1 }));
    await tick();
    expect(cache.get('b')).toBeUndefined();
    for (const key of ['a', 'c', 'd']) expect(cache.get(key)).toBeDefined();
    expect(cache.bytes).toBe(3 * listingBytes(one));
  });

  it('keeps a pending read for the readers that share it, and drops a read without a listing or that failed', async () => {
    const one = listing(2, 100);
    const cache = new ListingCache(listingBytes(one));
    let finish!: (value: ListingRead) => void;
    const pending = new Promise<ListingRead>((resolve) => (finish = resolve));
    cache.set('pending', pending);
    cache.set('full', settled({ listing: one, size: 1 }));
    cache.set('missing', settled(undefined));
    cache.set('failed', Promise.reject(new Error('store down')));
    await tick();
    expect(cache.get('pending')).toBe(pending);
    expect(cache.get('missing')).toBeUndefined();
    expect(cache.get('failed')).toBeUndefined();
    finish({ listing: one, size: 1 });
    await tick();
    expect(cache.bytes).toBe(listingBytes(one));
    expect(cache.get('full')).toBeUndefined();
    expect(cache.get('pending')).toBeDefined();
  });
});
