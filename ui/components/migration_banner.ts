/**
 * The banner shown while taskora's migration lock is held: every taskora
 * process halts its writes, and the board refuses changes (503
 * `MIGRATION_IN_PROGRESS`) until the migrator frees it. Says who holds it,
 * why, since when, and when it expires by itself (counted down from when
 * it was read).
 *
 * @module
 */
import { useEffect, useMemo } from "preact/hooks";
import { useBoard } from "../lib/board_context.ts";
import { currentTime } from "../lib/clock.ts";
import { formatClock } from "../lib/format.ts";
import { html } from "../lib/html.ts";
import { useLiveResource } from "../lib/use_live_resource.ts";

/**
 * How often the lock is read again: no job event tells of it, and every
 * open tab reads it, so rarely (a change refused meanwhile says why).
 */
const LOCK_READ_GAP_MS = 30_000;

/** Renders nothing while no lock is held. */
export function MigrationBanner() {
  const { api } = useBoard();
  const { data, reload } = useLiveResource(
    (signal) => api.get("/migration-lock", { signal }),
    [],
    { relevant: () => false, minGap: LOCK_READ_GAP_MS },
  );
  const lock = data?.lock;
  const expiresAt = useMemo(
    () => lock?.expiresInMs == null ? null : Date.now() + lock.expiresInMs,
    [data],
  );
  const left = expiresAt === null
    ? null
    : Math.max(0, Math.ceil((expiresAt - currentTime()) / 1000));
  // The lock lapsed by itself: read it again rather than show a lock that is gone.
  useEffect(() => {
    if (left === 0) reload();
  }, [left === 0]);
  if (!lock) return null;
  const parts = [
    lock.reason,
    lock.by && `by ${lock.by}`,
    lock.startedAt !== null && `started ${formatClock(lock.startedAt)}`,
    left !== null && (left > 0 ? `expires in ${left} s` : "expired, rechecking"),
  ].filter(Boolean);
  return html`
    <div class="banner banner-warning" role="alert">
      <strong class="banner-title">taskora migration in progress</strong>
      <span class="banner-message">
        Every taskora process halts its writes while the migration lock is held; changes from the
        board are refused until it is freed. Reads go on.${parts.length
          ? ` (${parts.join(", ")})`
          : ""}${lock.raw
          ? html`
            Lock payload: <code>${lock.raw}</code>
          `
          : null}
      </span>
      <code class="banner-code">MIGRATION_IN_PROGRESS</code>
    </div>
  `;
}
