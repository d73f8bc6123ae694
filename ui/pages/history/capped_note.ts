/**
 * What the History page says once a cap of the history dropped jobs: it
 * holds only the newest, and is whole after the newest one dropped, so a
 * search that finds nothing older than that is not a sign nothing ran.
 *
 * @module
 */
import type { HistoryCapped } from "../../../src/contract/history.ts";
import { Time } from "../../components/time.ts";
import { formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

/** The note, or nothing while no cap dropped a job. */
export function CappedNote({ capped }: { capped: HistoryCapped | null | undefined }) {
  if (!capped) return null;
  return html`
    <p class="banner banner-warning history-capped" role="note">
      <span>The history holds only the newest jobs: its cap dropped ${formatCountOf(
        capped.dropped,
        "older job",
      )}, the newest of them ended <${Time} at=${capped.newestDroppedAt} />. It is whole after
      that.</span>
    </p>
  `;
}
