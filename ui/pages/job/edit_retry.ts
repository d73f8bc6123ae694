/**
 * "Edit and retry": the job's data as pretty JSON in a modal editor,
 * checked as it is typed (valid JSON, at most the API's size), then the
 * change as a line diff before it is written (`POST /jobs/{id}/retry-edited`).
 * Data the job answer left out for its size is fetched whole first.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { MAX_EDITED_DATA_BYTES } from "../../../src/contract/jobs.ts";
import { nounFor } from "../../../src/contract/plural.ts";
import { runAction } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatBytes, formatCount, formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { collapse, lineDiff, MAX_DIFF_LINES } from "./line_diff.ts";
import type { JobDetail } from "./types.ts";

// htm drops a newline typed in the template; an interpolated one stays in the <pre>.
const NEWLINE = "\n";

const pretty = (value: unknown): string => JSON.stringify(value, null, 2) ?? "null";

/** What is wrong with the edited text, or null when it can be sent. */
function problemOf(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `Not valid JSON: ${(error as Error).message}`;
  }
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length;
  return bytes > MAX_EDITED_DATA_BYTES
    ? `Too big: ${formatBytes(bytes)} of JSON, at most ${formatBytes(MAX_EDITED_DATA_BYTES)}`
    : null;
}

function Diff({ before, after }: { before: string; after: string }) {
  const diff = lineDiff(before, after);
  if (diff === null) {
    return html`<p class="muted" role="status">
      Too many changed lines to compare here (over ${
      formatCount(MAX_DIFF_LINES)
    } on a side): check the
      new data in the editor before you retry.
    </p>`;
  }
  const added = diff.filter((line) => line.kind === "added").length;
  const removed = diff.filter((line) => line.kind === "removed").length;
  return html`
    <p class="muted diff-summary">${formatCountOf(added, "line")} added, ${formatCount(
      removed,
    )} removed</p>
    <pre class="code-block line-diff" aria-label="Changes to the job's data">${collapse(diff).map((
      line,
    ) =>
      line.kind === "gap"
        ? html`<span class="diff-gap">⋯ ${formatCount(line.lines)} unchanged ${
          nounFor(line.lines, "line")
        }${NEWLINE}</span>`
        : html`<span class=${`diff-${line.kind}`}>${
          line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "
        }${line.text}${NEWLINE}</span>`
    )}</pre>
  `;
}

/** The editor dialog for a failed or cancelled job; `onClose(true)` after a retry. */
export function EditRetryDialog(
  { job, onClose }: { job: JobDetail; onClose(retried: boolean): void },
) {
  const { api } = useBoard();
  const dialog = useRef<HTMLDialogElement>(null);
  const [original, setOriginal] = useState<string | null>(
    job.payloads.data?.truncated ? null : pretty(job.data),
  );
  const [text, setText] = useState(original ?? "");
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
    if (original !== null) return;
    api.get("/jobs/{jobId}/payloads/{field}", { params: { jobId: job.id, field: "data" } }).then(
      (value) => {
        setOriginal(pretty(value));
        setText(pretty(value));
      },
      (error) => setLoadError((error as Error).message),
    );
  }, []);

  const problem = original === null ? null : problemOf(text);
  const unchanged = original !== null && problem === null &&
    pretty(JSON.parse(text)) === original;
  const retry = async () => {
    setBusy(true);
    const done = await runAction(
      () =>
        api.send("POST", "/jobs/{jobId}/retry-edited", {
          params: { jobId: job.id },
          body: { data: JSON.parse(text) },
        }),
      () => "Job sent back to waiting with the new data",
    );
    setBusy(false);
    if (done) onClose(true);
  };

  return html`
    <dialog ref=${dialog} class="confirm edit-retry" aria-labelledby="edit-retry-title"
      onCancel=${() => onClose(false)}>
      <h2 id="edit-retry-title" class="confirm-title">
        ${reviewing ? "Retry with these changes?" : "Edit the data, then retry"}
      </h2>
      ${loadError
        ? html`<p class="field-error" role="alert">Could not load the data: ${loadError}</p>`
        : original === null
        ? html`<p class="muted" role="status">Loading the whole data…</p>`
        : reviewing
        ? html`<${Diff} before=${original} after=${pretty(JSON.parse(text))} />`
        : html`
          <label class="field">
            <span class="field-label">Data (JSON): the job runs again from attempt 1 with it</span>
            <textarea class="textarea edit-retry-text" rows="14" spellcheck="false"
              aria-invalid=${problem !== null} aria-describedby="edit-retry-status"
              value=${text} onInput=${(e: Event) =>
                setText((e.currentTarget as HTMLTextAreaElement).value)} />
          </label>
          <p id="edit-retry-status" class=${problem ? "field-error" : "muted"} role="status">
            ${problem ?? (unchanged ? "No change yet" : "Valid JSON")}
          </p>
        `}
      <div class="confirm-actions">
        ${reviewing
          ? html`
            <button type="button" class="btn" onClick=${() =>
              setReviewing(false)}>Back to editing</button>
            <button type="button" class="btn btn-primary" disabled=${busy} onClick=${retry}>
              Retry with new data
            </button>
          `
          : html`
            <button type="button" class="btn" onClick=${() => onClose(false)}>Cancel</button>
            <button type="button" class="btn btn-primary"
              disabled=${original === null || problem !== null || unchanged}
              onClick=${() => setReviewing(true)}>Review changes</button>
          `}
      </div>
    </dialog>
  `;
}
