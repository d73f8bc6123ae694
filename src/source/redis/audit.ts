/**
 * The audit trail in Redis: one stream per log (`<root>:board:audit` for
 * actions, `<root>:board:audit:refusals`), each capped with
 * `XADD MAXLEN ~ <maxEntries>`; each entry is one field, `e`, holding the
 * record as JSON (and `k`, the record's key, for a late write to find).
 * Each log is also trimmed by age. Reads go newest first with XREVRANGE in batches, and stop
 * after {@link AUDIT_SCAN_LIMIT} entries whatever the filters match.
 *
 * @module
 */

import {
  AUDIT_SCAN_LIMIT,
  type AuditAppendOptions,
  type AuditEntry,
  type AuditLog,
  type AuditPage,
  type AuditQuery,
  type AuditRecord,
  matchesAudit,
} from "../../contract/audit.ts";
import { auditKey } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/** Entries one XREVRANGE reads. */
const BATCH = 200;

type RawEntry = [id: string, fields: string[]];

/**
 * Adds an entry unless one since ARGV[2] (ms) carries the key ARGV[1] (a
 * late write's earlier attempt, applied unconfirmed), looking back at most
 * {@link ONCE_LOOKBACK} entries; answers the id either way. KEYS[1]: the log.
 */
const AUDIT_ONCE: LuaScript = {
  name: "audit-once",
  writes: true,
  source: `
local seen = redis.call('XREVRANGE', KEYS[1], '+', ARGV[2], 'COUNT', ARGV[3])
for _, entry in ipairs(seen) do
  local fields = entry[2]
  for i = 1, #fields, 2 do
    if fields[i] == 'k' and fields[i + 1] == ARGV[1] then return entry[1] end
  end
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '*', 'e', ARGV[5], 'k', ARGV[1])
if ARGV[6] ~= '' then redis.call('XTRIM', KEYS[1], 'MINID', ARGV[6]) end
return id
`,
};

/** Entries a late write looks back through for its earlier attempt. */
const ONCE_LOOKBACK = 1_000;

/**
 * Appends a record: XADD trimmed to about `maxEntries`, and with
 * `keepSince` an XTRIM of what is older (exact, so an hour-old entry goes
 * when it is due; it costs what it removes), in one round trip. Its time
 * becomes the entry id's, Redis's clock: one clock for every board replica,
 * so the trail's order and its time filters agree. With `onceSince` (a late
 * write) it is one script that first looks for the record's `key`.
 */
export async function appendAudit(
  connection: RedisConnection,
  record: AuditRecord,
  maxEntries: number,
  prefix?: string,
  log: AuditLog = "actions",
  options: AuditAppendOptions = {},
): Promise<AuditEntry> {
  const key = auditKey(prefix, log);
  const json = JSON.stringify(record);
  // A clock before the epoch (a test's) trims nothing: MINID takes no negative id.
  const keepSince = (options.keepSince ?? 0) > 0 ? String(Math.floor(options.keepSince!)) : "";
  let id: string;
  if (options.key !== undefined && options.onceSince !== undefined) {
    id = await connection.call<string>({
      script: AUDIT_ONCE,
      keys: [key],
      args: [
        options.key,
        String(Math.floor(options.onceSince)),
        ONCE_LOOKBACK,
        maxEntries,
        json,
        keepSince,
      ],
    });
  } else {
    const fields = options.key === undefined ? ["e", json] : ["e", json, "k", options.key];
    const add = ["XADD", key, "MAXLEN", "~", String(maxEntries), "*", ...fields];
    const replies = await connection.pipeline(
      keepSince === "" ? [add] : [add, ["XTRIM", key, "MINID", keepSince]],
    );
    id = replies[0] as string;
  }
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
