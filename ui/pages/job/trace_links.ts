/**
 * Links from a job to its trace and to its logs, as the board's `tracing`
 * option makes them (the server fills the templates and leaves a link out
 * when the job has no valid traceparent, or the user may not read its
 * data): shown only when there is one. They open in a new tab, without
 * the board as opener or referrer, since they lead to another tool.
 *
 * @module
 */
import { html } from "../../lib/html.ts";
import type { JobDetail } from "./types.ts";

/** One outward link (its `title` also its accessible name), or nothing without a URL. */
export function Outward(
  { url, label, title }: { url: string | null; label: string; title: string },
) {
  if (url === null) return null;
  return html`
    <a class="trace-link" href=${url} target="_blank" rel="noopener noreferrer" title=${title}
      aria-label=${title}>${label} ↗</a>
  `;
}

/** The job's trace and logs links, side by side; nothing when it has neither. */
export function TraceLinks({ links }: { links: JobDetail["links"] }) {
  if (links.trace === null && links.logs === null) return null;
  return html`
    <p class="job-note trace-links">
      <${Outward} url=${links.trace} label="Trace" title="Open the job's trace" />
      <${Outward} url=${links.logs} label="Logs" title="Open the logs of the job's last attempt" />
    </p>
  `;
}
