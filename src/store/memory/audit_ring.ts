/**
 * An in-process audit trail: what the memory store keeps. Bounded like the
 * Redis stream: past `maxEntries`, the oldest go. Ids are stream-like
 * (`<ms>-<seq>`), so a cursor reads the same way.
 *
 * @module
 */

import {
  AUDIT_SCAN_LIMIT,
  type AuditAppendOptions,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
  type AuditRecord,
  matchesAudit,
} from "../../contract/audit.ts";

/** `[ms, seq]` of a stream-like id; NaNs for a malformed one (the API checks ids first). */
function parts(id: string): [number, number] {
  const [ms, seq = "0"] = id.split("-");
  return [Number(ms), Number(seq)];
}

/** Orders two stream-like ids. */
export function compareAuditIds(a: string, b: string): number {
  const [am, as] = parts(a);
  const [bm, bs] = parts(b);
  return am - bm || as - bs;
}

/** An audit trail held in memory, newest last. */
export class AuditRing {
  readonly #entries: AuditEntry[] = [];
  /** Each entry's key, for a late write to find (see `AuditAppendOptions`). */
  readonly #keys = new Map<string, AuditEntry>();
  readonly #keyOf = new Map<AuditEntry, string>();
  #lastMs = 0;
  #seq = 0;

  /**
   * Appends a record, trimming the oldest past `maxEntries` and those more
   * than `maxAgeMs` before it; returns the entry (with `once`, the one
   * already kept under its key, if any).
   */
  append(record: AuditRecord, maxEntries: number, options: AuditAppendOptions = {}): AuditEntry {
    const { key, once } = options;
    const kept = key === undefined ? undefined : this.#keys.get(key);
    if (kept && once) return kept;
    const ms = Math.max(record.at, this.#lastMs);
    this.#seq = ms === this.#lastMs ? this.#seq + 1 : 0;
    this.#lastMs = ms;
    const entry = { ...record, id: `${ms}-${this.#seq}` };
    this.#entries.push(entry);
    if (key !== undefined) {
      this.#keys.set(key, entry);
      this.#keyOf.set(entry, key);
    }
    let gone = Math.max(0, this.#entries.length - maxEntries);
    const since = options.maxAgeMs === undefined ? -Infinity : entry.at - options.maxAgeMs;
    while (gone < this.#entries.length && this.#entries[gone].at < since) gone++;
    for (const old of this.#entries.splice(0, gone)) this.#forget(old);
    return entry;
  }

  /** Drops an entry's key. */
  #forget(entry: AuditEntry): void {
    const key = this.#keyOf.get(entry);
    if (key === undefined) return;
    this.#keyOf.delete(entry);
    this.#keys.delete(key);
  }

  /** Removes the entry of an id, if it is still kept. */
  remove(id: string): void {
    const at = this.#entries.findLastIndex((entry) => entry.id === id);
    if (at >= 0) this.#forget(this.#entries.splice(at, 1)[0]);
  }

  /** A page newest first; scans at most {@link AUDIT_SCAN_LIMIT} entries. */
  list(query: AuditQuery): AuditPage {
    const entries: AuditEntry[] = [];
    let i = this.#entries.length - 1;
    while (i >= 0 && !this.#before(this.#entries[i], query)) i--;
    let scanned = 0;
    for (; i >= 0 && entries.length < query.limit && scanned < AUDIT_SCAN_LIMIT; i--, scanned++) {
      const entry = this.#entries[i];
      if (query.from !== undefined && entry.at < query.from) {
        return { entries, next: null };
      }
      if (matchesAudit(entry, query)) entries.push(entry);
    }
    const more = i >= 0 && (query.from === undefined || this.#entries[i].at >= query.from);
    return { entries, next: more ? this.#entries[i + 1].id : null };
  }

  /** Whether an entry is within the page's upper bound (the cursor, `to`). */
  #before(entry: AuditEntry, query: AuditQuery): boolean {
    if (query.before !== undefined && compareAuditIds(entry.id, query.before) >= 0) return false;
    return query.to === undefined || entry.at <= query.to;
  }
}
