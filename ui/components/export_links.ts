/**
 * "CSV" and "NDJSON" download links for a list export endpoint (`api/…/export`),
 * with the server's row cap in the title.
 *
 * @module
 */
import { useBoard } from "../lib/board_context.ts";
import { formatCount } from "../lib/format.ts";
import { html } from "../lib/html.ts";
import { may } from "../lib/permissions.ts";

/** Two links to `path` (relative to the base, with its query), one per format. */
export function ExportLinks({ path, label }: { path: string; label: string }) {
  const { config } = useBoard();
  if (!may(config, "export")) return null;
  // The board's own cap (its `exportCap`), as each export's `X-Export-Cap` says.
  const cap = formatCount(config.exportCap);
  const join = path.includes("?") ? "&" : "?";
  return html`
    <span class="export-links" role="group" aria-label=${`Export ${label}`}>
      <span class="muted">Export</span>
      ${["csv", "ndjson"].map((format) =>
        html`
          <a key=${format} class="btn btn-small" download
            title=${`Download ${label} as ${format.toUpperCase()} (at most ${cap} rows; payloads left out)`}
            href=${`${path}${join}format=${format}`}>${format.toUpperCase()}</a>
        `
      )}
    </span>
  `;
}
