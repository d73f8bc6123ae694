/**
 * The banner shown while taskora's migration lock is held: every taskora
 * process halts its writes, and the board refuses changes (503
 * `MIGRATION_IN_PROGRESS`) until the migrator frees it. Says who holds it,
 * why, since when, and when it expires by itself.
 *
 * @module
 */
import type { MigrationLockResponse } from "../../src/contract/migration_lock.ts";
import { useBoard } from "../lib/board_context.ts";
import { formatClock } from "../lib/format.ts";
import { html } from "../lib/html.ts";
import { useLiveResource } from "../lib/use_live_resource.ts";

/** Renders nothing while no lock is held. */
export function MigrationBanner() {
  const { api } = useBoard();
  const { data } = useLiveResource(
    (signal) => api.get<MigrationLockResponse>("migration-lock", { signal }),
    [],
  );
  const lock = data?.lock;
  if (!lock) return null;
  const parts = [
    lock.reason,
    lock.by && `by ${lock.by}`,
    lock.startedAt !== null && `started ${formatClock(lock.startedAt)}`,
    lock.expiresInMs !== null && `expires in ${Math.ceil(lock.expiresInMs / 1000)} s`,
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
