/**
 * "CSV" and "NDJSON" download links for a list export endpoint (`api/…/export`),
 * with the server's row cap in the title.
 *
 * @module
 */
import { useBoard } from "../lib/board_context.ts";
import { html } from "../lib/html.ts";
import { may } from "../lib/permissions.ts";

/** Most rows an export holds (the server's `EXPORT_CAP`, in `X-Export-Cap`). */
const CAP = "100,000";

/** Two links to `path` (relative to the base, with its query), one per format. */
export function ExportLinks({ path, label }: { path: string; label: string }) {
  if (!may(useBoard().config, "export")) return null;
  const join = path.includes("?") ? "&" : "?";
  return html`
    <span class="export-links" role="group" aria-label=${`Export ${label}`}>
      <span class="muted">Export</span>
      ${["csv", "ndjson"].map((format) =>
        html`
          <a key=${format} class="btn btn-small" download
            title=${`Download ${label} as ${format.toUpperCase()} (at most ${CAP} rows; payloads left out)`}
            href=${`${path}${join}format=${format}`}>${format.toUpperCase()}</a>
        `
      )}
    </span>
  `;
}
