/**
 * One payload of a job (data, result, error or progress) on the job page:
 * its size, a copy button, a download link, and the value as a lazy JSON
 * tree (an error as text). A payload the server left out for its size shows
 * the start of its text and a "Load all" that fetches it on demand.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { CopyButton } from "../../components/copy_button.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { JsonTree } from "../../components/json_tree.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatBytes } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { urlOf } from "../../lib/api.ts";
import type { JobDetail, PayloadField } from "./types.ts";

/** The value, or what the "Load all" fetched. */
function Value({ field, value }: { field: PayloadField; value: unknown }) {
  return field === "error" && typeof value === "string"
    ? html`<pre class="code-block error-block">${value}</pre>`
    : html`<${JsonTree} value=${value} label=${`Job ${field}`} />`;
}

/** A payload with its toolbar, or the `empty` notice when the job has none. */
export function PayloadView(
  { job, field, empty }: { job: JobDetail; field: PayloadField; empty: string },
) {
  const { api } = useBoard();
  const size = job.payloads[field];
  const [loaded, setLoaded] = useState<{ id: string; value: unknown } | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  if (!size) return html`<p class="empty">${empty}</p>`;
  const full = loaded?.id === job.id ? loaded : null;
  const value = full ? full.value : job[field];
  const loadAll = async () => {
    setBusy(true);
    try {
      setLoaded({
        id: job.id,
        value: await api.get("/jobs/{jobId}/payloads/{field}", {
          params: { jobId: job.id, field },
        }),
      });
      setError(null);
    } catch (err) {
      setError(err as Error);
    }
    setBusy(false);
  };
  const clipped = size.truncated && !full;
  return html`
    <div class="payload-bar">
      <span class="muted">${formatBytes(size.bytes)}</span>
      ${clipped
        ? null
        : html`<${CopyButton} label=${`Copy ${field}`} text=${() =>
          typeof value === "string" && field === "error" ? value : JSON.stringify(value)} />`}
      <a class="btn-copy" href=${`api/${
        urlOf("/jobs/{jobId}/payloads/{field}", {
          params: { jobId: job.id, field },
          query: { download: "" },
        })
      }`} download>Download</a>
    </div>
    <${ErrorBanner} error=${error} />
    ${clipped
      ? html`
        <p class="muted payload-note">
          Too big to show at once: the first ${formatBytes(size.preview?.length ?? 0)} of its text.
          <button type="button" class="btn" disabled=${busy} onClick=${loadAll}>${busy
            ? "Loading…"
            : `Load all ${formatBytes(size.bytes)}`}</button>
        </p>
        <pre class="code-block payload-preview">${size.preview}…</pre>
      `
      : html`<${Value} field=${field} value=${value} />`}
  `;
}
