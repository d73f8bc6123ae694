/**
 * Staleness, said once for the whole page: while Redis or the board does not
 * answer, the shell greys the counts (`.is-stale` on the content) and this
 * note says how old they are. The top bar says why.
 *
 * @module
 */
import { useBoard } from "../lib/board_context.ts";
import { formatClock } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** Whether the data on screen is stale, and how old it is (ms, when known). */
export function useStaleness(): { stale: boolean; asOf: number | null } {
  const { connectivity } = useBoard();
  const status = connectivity.status.value;
  return {
    stale: status === "store-down" || status === "offline",
    asOf: connectivity.asOf.value,
  };
}

/** The note; nothing while the data is current. */
export function StaleNote() {
  const { connectivity } = useBoard();
  const { stale, asOf } = useStaleness();
  if (!stale) return null;
  const who = connectivity.status.value === "offline" ? "the board server" : "Redis";
  return html`
    <p class="stale-note" role="status">
      ${asOf === null ? "Showing the last known data" : html`
        Showing data as of <time
          datetime=${new Date(asOf).toISOString()}>${formatClock(asOf)}</time>
      `}. It updates by
      itself when ${who} answers again.
    </p>
  `;
}
