/**
 * The Logs tab: the newest lines come with the job (and stay live with it);
 * older ones are read a page at a time from `GET /jobs/{id}/logs`, so a job
 * that logged half a million lines costs one page, not the whole log. A
 * level or attempt filter asks the server for the matching lines (among the
 * newest 10,000), a page at a time too.
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";
import { ErrorBanner } from "../../components/error_banner.ts";
import { Pagination } from "../../components/pagination.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { LogsTable } from "./logs_table.ts";
import type { JobDetail, LogLine } from "./types.ts";

/** Lines per page: as many as the job's own answer carries. */
const PAGE_SIZE = 100;

const LEVELS = ["info", "warn", "error"];

/** A page read from the API: its query, its lines and how many match. */
interface LogPage {
  query: string;
  logs: LogLine[];
  total: number;
}

function Select(
  { label, value, options, onChange }: {
    label: string;
    value: string;
    options: string[];
    onChange(value: string): void;
  },
) {
  return html`
    <label class="field-inline">
      <span class="field-label">${label}</span>
      <select class="select" value=${value} onChange=${(e: Event) =>
        onChange((e.target as HTMLSelectElement).value)}>
        <option value="">all</option>
        ${options.map((option) => html`<option key=${option} value=${option}>${option}</option>`)}
      </select>
    </label>
  `;
}

/** The job's log, newest page first, filterable, with Previous / Next through the rest. */
export function JobLogs({ job }: { job: JobDetail }) {
  const { api } = useBoard();
  // null: the newest lines, the ones the job itself carries.
  const [offset, setOffset] = useState<number | null>(null);
  const [level, setLevel] = useState("");
  const [attempt, setAttempt] = useState("");
  const [page, setPage] = useState<LogPage | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const filtered = level !== "" || attempt !== "";
  const newest = job.logCount - job.logs.length;
  const at = offset ?? (filtered ? 0 : newest);
  const query = `offset=${at}&limit=${PAGE_SIZE}&level=${level}&attempt=${attempt}`;

  useEffect(() => {
    setError(null);
    if (offset === null && !filtered) return;
    const abort = new AbortController();
    api.getPage("/jobs/{jobId}/logs", {
      params: { jobId: job.id },
      query: {
        offset: at,
        limit: PAGE_SIZE,
        level,
        attempt: attempt ? Number(attempt) : undefined,
      },
      signal: abort.signal,
    })
      .then(
        ({ items, total }) => setPage({ query, logs: items, total }),
        (err: Error) => {
          if (!abort.signal.aborted) setError(err);
        },
      );
    return () => abort.abort();
  }, [job.id, query]);

  const fromJob = offset === null && !filtered;
  const shown = fromJob ? job.logs : page?.query === query ? page.logs : null;
  const total = fromJob ? job.logCount : page?.total ?? 0;
  const refilter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setOffset(null);
  };
  const attempts = Array.from({ length: job.attempt }, (_, i) => String(i + 1));
  return html`
    <div class="log-filters">
      <${Select} label="Level" value=${level} options=${LEVELS} onChange=${refilter(setLevel)} />
      <${Select} label="Attempt" value=${attempt} options=${attempts} onChange=${refilter(
        setAttempt,
      )} />
      ${attempt
        ? html`<span class="muted">A line's attempt is told by the time each attempt failed.</span>`
        : null}
    </div>
    <${ErrorBanner} error=${error} />
    ${shown === null
      ? html`<p class="muted" role="status">Loading log lines…</p>`
      : html`<${LogsTable} logs=${shown} jobId=${job.id} />`}
    <${Pagination}
      offset=${at}
      limit=${PAGE_SIZE}
      total=${total}
      onChange=${(next: number) => setOffset(!filtered && next >= newest ? null : next)}
    />
  `;
}
