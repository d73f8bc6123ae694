/**
 * node-redis's client-side cache, saying when it last dropped a key's reads,
 * so that a read it answered can be answered again without asking it.
 *
 * A hit of node-redis's cache still costs a command's whole path (its
 * parser, its cache key, a `structuredClone` of the kept reply) and the
 * reply is a new object each time, so what is built from it must be compared
 * with what the last one built. node-redis does not say when it drops a
 * read, so these subclasses count each drop as it happens: an invalidation
 * of a key from Redis (or of this board's own write), the whole cache
 * cleared (the connection's error or close, a cluster reading its slot map
 * again), an entry evicted or failed, a pooled cache disabled. A read taken
 * under {@link DropCounting.mark} stands while {@link DropCounting.unchangedSince}
 * says so: no longer than node-redis would have answered it from its cache.
 *
 * @module
 */

import { BasicClientSideCache, BasicPooledClientSideCache } from "redis";

/** What a read of one key was taken at, and whether that read still stands. */
export interface DropCounting {
  /** The mark to take before reading `key`. */
  mark(key: string): number;
  /** Whether nothing of `key` was dropped since `mark` was taken (and the cache serves). */
  unchangedSince(key: string, mark: number): boolean;
}

// deno-lint-ignore no-explicit-any -- a mixin's base constructor takes what its class takes
type CacheClass = abstract new (...args: any[]) => BasicClientSideCache;

/** `Base` counting its drops: every path by which node-redis drops a read passes one of these. */
function countingDrops<B extends CacheClass>(Base: B) {
  abstract class Counting extends Base implements DropCounting {
    /** Drops so far; each drop is numbered. */
    #drops = 0;
    /** The number of the last drop of everything. */
    #allAt = 0;
    /**
     * The number of each key's last invalidation since the last drop of everything: keys this
     * connection read (Redis tracks no others for it) or the board forgets after its writes, a
     * handful, and none after a drop of everything (a reconnection clears the cache).
     */
    readonly #keyAt = new Map<string, number>();

    mark(key: string): number {
      return Math.max(this.#allAt, this.#keyAt.get(key) ?? 0);
    }

    unchangedSince(key: string, mark: number): boolean {
      return this.mark(key) === mark;
    }

    /** Every read kept so far no longer stands. */
    protected droppedAll(): void {
      this.#allAt = ++this.#drops;
      // Each older than the drop of everything: `mark` would read the drop's number anyway.
      this.#keyAt.clear();
    }

    override invalidate(key: Parameters<BasicClientSideCache["invalidate"]>[0]): void {
      if (key === null) this.droppedAll();
      else this.#keyAt.set(key.toString(), ++this.#drops);
      super.invalidate(key);
    }

    override clear(resetStats?: boolean): void {
      this.droppedAll();
      super.clear(resetStats);
    }

    override delete(cacheKey: string): void {
      this.droppedAll();
      super.delete(cacheKey);
    }

    override deleteOldest(): void {
      this.droppedAll();
      super.deleteOldest();
    }
  }
  return Counting;
}

/** A one-server client's cache (`clientSideCache` of `createClient`), counting its drops. */
export class CountedCache extends countingDrops(BasicClientSideCache) {}

/**
 * A cluster's or sentinel set's cache, counting its drops. While it is
 * disabled (a cluster reading its slot map again) node-redis answers no read
 * from it, and no read stands.
 */
export class CountedPooledCache extends countingDrops(BasicPooledClientSideCache) {
  #disabled = false;

  override unchangedSince(key: string, mark: number): boolean {
    return !this.#disabled && super.unchangedSince(key, mark);
  }

  override disable(): void {
    this.#disabled = true;
    this.droppedAll();
    super.disable();
  }

  override enable(): void {
    this.droppedAll();
    this.#disabled = false;
    super.enable();
  }
}
