/**
 * The matches of a job search, as the search stream sends them: progress
 * ("Scanned 40,000 of 1,000,000 · 12 found"), each match as found, and at
 * the end "Continue", which puts the stream's cursor in the URL and so
 * shows the next page in place of this one: the page never holds more than
 * one page of matches. "Stop" aborts the request, which stops the scan on
 * the server too.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import {
  JOB_FILTER_PARAMS,
  type JobFilterQuery,
  type SearchFrame,
  type SearchProgress,
} from "../../../src/contract/job_filter.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { ApiError, urlOf } from "../../lib/api.ts";
import { ExportLinks } from "../../components/export_links.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { JobState } from "../../lib/types.ts";
import type { Job } from "../job/types.ts";
import { actionsFor, BulkBar } from "./bulk_bar.ts";
import type { BulkOperation } from "../../lib/bulk_request.ts";
import { JobTable } from "./job_table.ts";
import { rowActionsOf } from "./row_actions.ts";
import { filterOf, filterQuery, setParams } from "./search_query.ts";
import { useSelection } from "../../lib/selection.ts";
import { may } from "../../lib/permissions.ts";

type End = Extract<SearchFrame, { type: "end" }>;
type Status = "running" | "stopped" | "ended";

/** Calls `onFrame` for each NDJSON line of a streamed answer, until it ends or is aborted. */
async function readFrames(response: Response, onFrame: (frame: SearchFrame) => void) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let rest = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    const lines = (rest + value).split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line) onFrame(JSON.parse(line) as SearchFrame);
  }
}

/** "Scanned 40,000 of 1,000,000 · 12 found". */
function progressText({ scanned, total, found, skipped }: SearchProgress): string {
  const big = skipped > 0 ? ` · ${formatCount(skipped)} too big to search` : "";
  return `Scanned ${formatCount(scanned)} of ${formatCount(total)} · ${
    formatCount(found)
  } found${big}`;
}

/**
 * The search the URL holds, for one state's tab. Its matches can be checked
 * and acted on as a list's rows can; operations are reported to `onStarted`.
 */
export function SearchResults(
  { task, state, onStarted }: {
    task: string;
    state: JobState;
    onStarted(operation: BulkOperation): void;
  },
) {
  const { api, config, router } = useBoard();
  const search = router.search.value;
  const [matches, setMatches] = useState<Job[]>([]);
  const [progress, setProgress] = useState<SearchProgress | null>(null);
  const [end, setEnd] = useState<End | null>(null);
  const [status, setStatus] = useState<Status>("running");
  const [error, setError] = useState<Error | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    setMatches([]);
    setProgress(null);
    setEnd(null);
    setError(null);
    setStatus("running");
    const url = new URLSearchParams(search);
    // The filter as the URL gives it: the server refuses what it does not take (400 naming it).
    const filter: JobFilterQuery = {};
    for (const name of JOB_FILTER_PARAMS) {
      if (url.has(name)) filter[name] = url.get(name)!;
    }
    (async () => {
      const response = await api.stream("/tasks/{task}/jobs/search", {
        params: { task },
        query: { ...filter, cursor: url.get("cursor") ?? undefined, state },
        signal: controller.signal,
      });
      await readFrames(response, (frame) => {
        if (frame.type === "match") setMatches((found) => [...found, frame.job]);
        else if (frame.type === "progress") setProgress(frame);
        else if (frame.type === "end") {
          setProgress(frame);
          setEnd(frame);
        } else setError(new ApiError(500, frame.code, frame.error));
      });
      setStatus("ended");
    })().catch((failure) => {
      if (!controller.signal.aborted) {
        setError(failure);
        setStatus("ended");
      }
    });
    return () => controller.abort();
  }, [task, state, search]);

  const stop = () => {
    abort.current?.abort();
    setStatus("stopped");
  };
  const selection = useSelection(matches);
  const editable = may(config, "bulk.start") && actionsFor(state).length > 0;
  const next = end?.cursor
    ? `/${href("tasks", task)}?${filterQuery(state, filterOf(search), end.cursor)}`
    : null;

  return html`
    <div class="search-status" role="status" aria-live="polite">
      <span>${progress ? progressText(progress) : "Searching…"}${status === "stopped"
        ? " · stopped"
        : end?.reason === "done"
        ? " · searched them all"
        : ""}</span>
      ${status === "running"
        ? html`<button type="button" class="btn btn-small" onClick=${stop}>Stop</button>`
        : null}
      ${next && status === "ended"
        ? html`
          <button type="button" class="btn btn-small btn-primary"
            onClick=${() => router.navigate(next)}>Continue</button>
        `
        : null}
      <${ExportLinks}
        path=${`api/${
          urlOf("/tasks/{task}/jobs/search/export", {
            params: { task },
            query: { ...setParams(filterOf(search)), state },
          })
        }`}
        label=${`the ${state} jobs of ${task} that match the filter`}
      />
    </div>
    <${ErrorBanner} error=${error} />
    <${BulkBar}
      task=${task}
      state=${state}
      selection=${selection}
      pageSize=${matches.length}
      total=${matches.length}
      onStarted=${onStarted}
    />
    ${matches.length > 0
      ? html`
        <${JobTable} jobs=${matches} state=${state}
          selection=${editable ? selection : undefined}
          actions=${editable ? rowActionsOf(task, onStarted) : undefined} />
      `
      : status !== "running"
      ? html`<p class="empty">No ${state} jobs match</p>`
      : null}
  `;
}
