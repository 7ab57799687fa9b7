import type { ArchiveListing } from '@vigil/core';

/** What one instance keeps of the listings it read: 32 MiB of them, counted as JSON. */
export const MAX_CACHED_LISTING_BYTES = 32 * 1024 * 1024;

export type ListingRead = { listing: ArchiveListing; size: number } | undefined;

/** A listing's weight in the cache: the bytes of its JSON, what it answers in every read. */
export function listingBytes(listing: ArchiveListing): number {
  return Buffer.byteLength(JSON.stringify(listing), 'utf8');
}

interface Slot {
  read: Promise<ListingRead>;
  /** 0 while the read is pending: it is weighed once it has a listing. */
  bytes: number;
}

/**
 * Listings by content hash, least recently used first out, bounded by their total bytes rather
 * than their number: one listing may be 4 MiB (MAX_ARCHIVE_LISTING_BYTES) or a few hundred bytes,
 * so a count bounds nothing. Pending reads are kept (concurrent reads share them) and weighed
 * when they settle; a read that settles without a listing, or fails, is dropped.
 */
export class ListingCache {
  private readonly slots = new Map<string, Slot>();
  private total = 0;

  constructor(readonly maxBytes: number = MAX_CACHED_LISTING_BYTES) {}

  /** The bytes of the settled listings held. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.slots.size;
  }

  get(key: string): Promise<ListingRead> | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.read;
  }

  set(key: string, read: Promise<ListingRead>): void {
    this.delete(key);
    const slot: Slot = { read, bytes: 0 };
    this.slots.set(key, slot);
    read.then(
      (result) => {
        if (this.slots.get(key) !== slot) return;
        if (result === undefined) {
          this.delete(key);
          return;
        }
        slot.bytes = listingBytes(result.listing);
        this.total += slot.bytes;
        this.evict();
      },
      () => {
        if (this.slots.get(key) === slot) this.delete(key);
      },
    );
  }

  delete(key: string): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.total -= slot.bytes;
    this.slots.delete(key);
  }

  private evict(): void {
    for (const [key, slot] of this.slots) {
      if (this.total <= this.maxBytes) return;
      // A pending read weighs nothing yet, and concurrent reads may be waiting on it.
      if (slot.bytes > 0) this.delete(key);
    }
  }
}
