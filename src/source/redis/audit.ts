/**
 * The audit trail in Redis: one stream per log (`<root>:board:audit` for
 * actions, `<root>:board:audit:refusals`), each capped with
 * `XADD MAXLEN ~ <maxEntries>`; each entry is one field, `e`, holding the
 * record as JSON. Reads go newest first with XREVRANGE in batches, and stop
 * after {@link AUDIT_SCAN_LIMIT} entries whatever the filters match.
 *
 * @module
 */

import {
  AUDIT_SCAN_LIMIT,
  type AuditEntry,
  type AuditLog,
  type AuditPage,
  type AuditQuery,
  type AuditRecord,
  matchesAudit,
} from "../../contract/audit.ts";
import { auditKey } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

/** Entries one XREVRANGE reads. */
const BATCH = 200;

type RawEntry = [id: string, fields: string[]];

/**
 * Appends a record: one XADD, trimmed to about `maxEntries`. Its time
 * becomes the entry id's, Redis's clock: one clock for every board replica,
 * so the trail's order and its time filters agree.
 */
export async function appendAudit(
  connection: RedisConnection,
  record: AuditRecord,
  maxEntries: number,
  prefix?: string,
  log: AuditLog = "actions",
): Promise<AuditEntry> {
  const id = await connection.call<string>([
    "XADD",
    auditKey(prefix, log),
    "MAXLEN",
    "~",
    String(maxEntries),
    "*",
    "e",
    JSON.stringify(record),
  ]);
  return { ...record, at: Number(id.split("-")[0]), id };
}

/** Removes an entry (a pending one, once its outcome is written); XDEL frees memory, never refused. */
export async function removeAudit(
  connection: RedisConnection,
  id: string,
  prefix?: string,
  log: AuditLog = "actions",
): Promise<void> {
  await connection.call<number>(["XDEL", auditKey(prefix, log), id]);
}

/** The record of a stream entry; null for one this board did not write. */
function decode([id, fields]: RawEntry): AuditEntry | null {
  const json = fields[fields.indexOf("e") + 1];
  if (fields.indexOf("e") < 0 || typeof json !== "string") return null;
  try {
    const record = JSON.parse(json) as AuditRecord;
    if (!record || typeof record !== "object") return null;
    return { ...record, at: Number(id.split("-")[0]), id };
  } catch {
    return null;
  }
}

/** A page of the trail newest first: O(scanned) with scanned ≤ {@link AUDIT_SCAN_LIMIT}. */
export async function listAudit(
  connection: RedisConnection,
  query: AuditQuery,
  prefix?: string,
  log: AuditLog = "actions",
): Promise<AuditPage> {
  const key = auditKey(prefix, log);
  const start = query.from === undefined ? "-" : String(query.from);
  let end = query.before !== undefined
    ? `(${query.before}`
    : query.to === undefined
    ? "+"
    : String(query.to);
  const entries: AuditEntry[] = [];
  let scanned = 0;
  while (scanned < AUDIT_SCAN_LIMIT) {
    const count = Math.min(BATCH, AUDIT_SCAN_LIMIT - scanned);
    const batch = await connection.call<RawEntry[]>([
      "XREVRANGE",
      key,
      end,
      start,
      "COUNT",
      String(count),
    ]);
    for (let i = 0; i < batch.length; i++) {
      scanned++;
      const entry = decode(batch[i]);
      if (entry && matchesAudit(entry, query)) entries.push(entry);
      if (entries.length === query.limit) {
        // More may follow unless this was the last one the range holds.
        const more = i < batch.length - 1 || batch.length === count;
        return { entries, next: more ? batch[i][0] : null };
      }
    }
    if (batch.length < count) return { entries, next: null };
    end = `(${batch[batch.length - 1][0]}`;
  }
  return { entries, next: end.slice(1) };
}
