/**
 * The audit trail in Redis: one stream per log (`<root>:board:audit` for
 * actions, `<root>:board:audit:refusals`), each capped with
 * `XADD MAXLEN ~ <maxEntries>` and trimmed by age; each entry holds the
 * record as JSON in `e` (and `k`, the record's key, for a late write to
 * find). Reads go newest first with XREVRANGE in batches, and stop
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
import { auditKey } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import type { LuaScript } from "../../source/redis/scripts.ts";

/** Entries one XREVRANGE reads. */
const BATCH = 200;

type RawEntry = [id: string, fields: string[]];

/**
 * Appends one entry. KEYS[1]: the log; ARGV: the record's JSON, the length
 * cap, the age bound in ms (`''`: none), the record's key (`''`: none), and
 * `'1'` to add it only when none of the newest ARGV[6] entries has the key
 * (answering that one's id). The age bound trims from the new entry's time,
 * Redis's clock, exactly (`XTRIM MINID`, which costs what it removes).
 */
export const AUDIT_APPEND: LuaScript = {
  name: "audit-append",
  writes: true,
  source: `
local log, json, cap, maxAge, key = KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if ARGV[5] == '1' then
  for _, entry in ipairs(redis.call('XREVRANGE', log, '+', '-', 'COUNT', ARGV[6])) do
    local fields = entry[2]
    for i = 1, #fields, 2 do
      if fields[i] == 'k' and fields[i + 1] == key then return entry[1] end
    end
  end
end
local id
if key == '' then
  id = redis.call('XADD', log, 'MAXLEN', '~', cap, '*', 'e', json)
else
  id = redis.call('XADD', log, 'MAXLEN', '~', cap, '*', 'e', json, 'k', key)
end
if maxAge ~= '' then
  local oldest = tonumber(string.match(id, '^%d+')) - tonumber(maxAge)
  if oldest > 0 then redis.call('XTRIM', log, 'MINID', tostring(oldest)) end
end
return id
`,
};

/** Entries a late write looks back through for its earlier attempt. */
const ONCE_LOOKBACK = 1_000;

/**
 * Appends a record (one script call): trimmed to about `maxEntries`, and to
 * `maxAgeMs` before it. Its time becomes the entry id's, Redis's clock: one
 * clock for every board replica, so the trail's order, its age bound and
 * its time filters agree. With `once` (a late write) the record's `key` is
 * looked for first.
 */
export async function appendAudit(
  connection: RedisConnection,
  record: AuditRecord,
  maxEntries: number,
  prefix?: string,
  log: AuditLog = "actions",
  options: AuditAppendOptions = {},
): Promise<AuditEntry> {
  const id = await connection.call<string>({
    script: AUDIT_APPEND,
    keys: [auditKey(prefix, log)],
    args: [
      JSON.stringify(record),
      maxEntries,
      options.maxAgeMs === undefined ? "" : Math.floor(options.maxAgeMs),
      options.key ?? "",
      options.once && options.key !== undefined ? "1" : "0",
      ONCE_LOOKBACK,
    ],
  });
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
