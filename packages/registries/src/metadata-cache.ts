/** One remembered metadata answer, revalidated with `If-None-Match`. */
export interface CachedMetadata {
  etag: string;
  document: unknown;
}

/**
 * Where connectors keep the last answer per metadata URL. The default is an in-memory LRU; a
 * server can pass its own (a database table) so a restart does not refetch every packument.
 */
export interface MetadataCache {
  get(key: string): CachedMetadata | undefined;
  set(key: string, value: CachedMetadata): void;
}

export class LruMetadataCache implements MetadataCache {
  private readonly entries = new Map<string, CachedMetadata>();

  constructor(private readonly capacity: number) {}

  get(key: string): CachedMetadata | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: CachedMetadata): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
