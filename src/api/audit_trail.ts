/**
 * Where the board's audit trail lives: in the source's store when it keeps
 * one (the Redis stream every replica shares), else in this board's memory,
 * bounded the same (a taskora App's public API has nowhere to put it).
 *
 * @module
 */

import type { AuditEntry, AuditPage, AuditQuery, AuditRecord } from "../contract/audit.ts";
import { AuditRing } from "../source/audit_ring.ts";
import type { TaskSource } from "../source/types.ts";

/** The board's audit trail. */
export interface AuditTrail {
  /** Records one mutation. */
  append(record: AuditRecord): Promise<AuditEntry>;
  /** A page newest first. */
  list(query: AuditQuery): Promise<AuditPage>;
  /** Whether the trail is shared by every board on the store (false: this process only). */
  shared: boolean;
  /** About how many entries it keeps. */
  maxEntries: number;
}

/** The trail of a source, of at most about `maxEntries` entries. */
export function createAuditTrail(source: TaskSource, maxEntries: number): AuditTrail {
  if (source.appendAudit && source.listAudit) {
    const append = source.appendAudit.bind(source);
    const list = source.listAudit.bind(source);
    // Mutations do not wait for their record (see audit_record.ts); a read on
    // this board waits for the last one it started, so it sees its own writes.
    let written: Promise<unknown> = Promise.resolve();
    return {
      append(record) {
        const entry = append(record, maxEntries);
        written = entry.catch(() => {});
        return entry;
      },
      async list(query) {
        await written;
        return await list(query);
      },
      shared: true,
      maxEntries,
    };
  }
  const ring = new AuditRing();
  return {
    append: (record) => Promise.resolve(ring.append(record, maxEntries)),
    list: (query) => Promise.resolve(ring.list(query)),
    shared: false,
    maxEntries,
  };
}
