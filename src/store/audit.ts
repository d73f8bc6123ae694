/**
 * The audit trail's part of the {@link BoardStore}: what every board on the
 * store records of the mutations it served and the requests it refused.
 *
 * @module
 */

import type {
  AuditAppendOptions,
  AuditEntry,
  AuditLog,
  AuditPage,
  AuditQuery,
  AuditRecord,
} from "../contract/audit.ts";

/** The audit trail every board on the store shares: two logs, `actions` and `refusals`. */
export interface AuditStore {
  /**
   * Appends a record to a log (default `actions`), trimmed to about
   * `maxEntries`; returns it with its id (with `options.once`, the entry
   * already kept under its key, if any).
   */
  appendAudit(
    record: AuditRecord,
    maxEntries: number,
    log?: AuditLog,
    options?: AuditAppendOptions,
  ): Promise<AuditEntry>;
  /** Removes an entry of a log (a pending one, once its outcome is written). */
  removeAudit(id: string, log?: AuditLog): Promise<void>;
  /** A page of one log (default `actions`), newest first, filtered; bounded per call. */
  listAudit(query: AuditQuery, log?: AuditLog): Promise<AuditPage>;
}
