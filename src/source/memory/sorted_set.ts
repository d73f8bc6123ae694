/**
 * An in-memory sorted set with Redis ZSET ordering: by score, then by member
 * (byte order) among equal scores. The memory source keeps every taskora
 * ZSET (prioritized, delayed, finished sets) in one of these, so its pages
 * come out in exactly the order ZRANGE / ZREVRANGE would give.
 *
 * @module
 */

interface Entry {
  member: string;
  score: number;
}

function before(a: Entry, score: number, member: string): boolean {
  return a.score < score || (a.score === score && a.member < member);
}

/** A set of members ordered by score, then member. */
export class SortedSet {
  #entries: Entry[] = [];
  #scores = new Map<string, number>();

  /** Number of members. */
  get size(): number {
    return this.#entries.length;
  }

  /** The member's score, or undefined when absent. */
  score(member: string): number | undefined {
    return this.#scores.get(member);
  }

  /** Whether the member is in the set. */
  has(member: string): boolean {
    return this.#scores.has(member);
  }

  /** Adds the member, or moves it to its new score (ZADD). */
  add(member: string, score: number): void {
    if (this.#scores.has(member)) this.remove(member);
    const index = this.#indexOf(score, member);
    if (index === this.#entries.length) this.#entries.push({ member, score });
    else this.#entries.splice(index, 0, { member, score });
    this.#scores.set(member, score);
  }

  /** Removes the member (ZREM); false when it was absent. */
  remove(member: string): boolean {
    const score = this.#scores.get(member);
    if (score === undefined) return false;
    this.#entries.splice(this.#indexOf(score, member), 1);
    this.#scores.delete(member);
    return true;
  }

  /** Removes and returns the lowest-ranked member (ZPOPMIN), or undefined. */
  popMin(): { member: string; score: number } | undefined {
    const entry = this.#entries.shift();
    if (entry) this.#scores.delete(entry.member);
    return entry;
  }

  /** The lowest-ranked entry without removing it. */
  peekMin(): { member: string; score: number } | undefined {
    return this.#entries[0];
  }

  /** Removes the `count` lowest-ranked members and returns them. */
  trimLowest(count: number): string[] {
    const removed = this.#entries.splice(0, Math.max(0, count));
    for (const entry of removed) this.#scores.delete(entry.member);
    return removed.map((entry) => entry.member);
  }

  /** Members in ascending order (ZRANGE 0 -1). */
  *ascending(): IterableIterator<{ member: string; score: number }> {
    for (const entry of this.#entries) yield entry;
  }

  /** Members in descending order (ZREVRANGE 0 -1). */
  *descending(): IterableIterator<{ member: string; score: number }> {
    for (let i = this.#entries.length - 1; i >= 0; i--) yield this.#entries[i];
  }

  /** Members ranked [start, start + count) ascending, or descending with `reverse`. */
  range(start: number, count: number, reverse = false): string[] {
    const n = this.#entries.length;
    const out: string[] = [];
    for (let rank = Math.max(0, start); rank < Math.min(n, start + count); rank++) {
      out.push(this.#entries[reverse ? n - 1 - rank : rank].member);
    }
    return out;
  }

  /** Members scored above `score` (ZCOUNT (score +inf). */
  countAbove(score: number): number {
    return this.#entries.length - this.#firstNotBefore((entry) => entry.score <= score);
  }

  // First index whose entry is not before (score, member).
  #indexOf(score: number, member: string): number {
    return this.#firstNotBefore((entry) => before(entry, score, member));
  }

  // First index whose entry `isBefore` does not hold for (it holds for a prefix): binary search.
  #firstNotBefore(isBefore: (entry: Entry) => boolean): number {
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isBefore(this.#entries[mid])) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
