/**
 * One page of the audit trail's two logs (actions and refusals), newest
 * first: each log is read with the same query, and the pages merged so that
 * the cursor misses nothing. A log's read stops after a bounded scan (its
 * `next`), so the merged page keeps only what every log has examined; and
 * the same id may be in both logs (each stream numbers its own), so a page
 * never ends between two twins.
 *
 * @module
 */

import type { AuditEntry, AuditPage } from "../contract/audit.ts";
import { compareAuditIds } from "../store/memory/audit_ring.ts";

/** The pages of one query over several logs, as one page of at most `limit` entries (twins aside). */
export function mergeAuditPages(pages: readonly AuditPage[], limit: number): AuditPage {
  const bounds = pages.flatMap((page) => page.next === null ? [] : [page.next]);
  // Below the highest bound, some log has not looked yet.
  const bound = bounds.reduce<string | null>(
    (high, next) => high === null || compareAuditIds(next, high) > 0 ? next : high,
    null,
  );
  const kept: AuditEntry[] = pages
    .flatMap((page) => page.entries)
    .filter((entry) => bound === null || compareAuditIds(entry.id, bound) >= 0)
    .sort((a, b) => compareAuditIds(b.id, a.id));
  if (kept.length <= limit) return { entries: kept, next: bound };
  let end = limit;
  while (end < kept.length && kept[end].id === kept[limit - 1].id) end++;
  return { entries: kept.slice(0, end), next: kept[end - 1].id };
}
