/**
 * An in-process audit trail: what the memory source keeps, and what the
 * board keeps for a source with no store to share one (the taskora App's
 * public API). Bounded like the Redis stream: past `maxEntries`, the oldest
 * go. Ids are stream-like (`<ms>-<seq>`), so a cursor reads the same way.
 *
 * @module
 */

import {
  AUDIT_SCAN_LIMIT,
  type AuditEntry,
  type AuditPage,
  type AuditQuery,
  type AuditRecord,
  matchesAudit,
} from "../contract/audit.ts";

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
  #lastMs = 0;
  #seq = 0;

  /** Appends a record, trimming the oldest past `maxEntries`; returns the entry. */
  append(record: AuditRecord, maxEntries: number): AuditEntry {
    const ms = Math.max(record.at, this.#lastMs);
    this.#seq = ms === this.#lastMs ? this.#seq + 1 : 0;
    this.#lastMs = ms;
    const entry = { ...record, id: `${ms}-${this.#seq}` };
    this.#entries.push(entry);
    if (this.#entries.length > maxEntries) {
      this.#entries.splice(0, this.#entries.length - maxEntries);
    }
    return entry;
  }

  /** Removes the entry of an id, if it is still kept. */
  remove(id: string): void {
    const at = this.#entries.findLastIndex((entry) => entry.id === id);
    if (at >= 0) this.#entries.splice(at, 1);
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
