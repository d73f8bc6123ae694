/**
 * The Logs tab: the newest lines come with the job (and stay live with it);
 * older ones are read a page at a time from `GET /jobs/{id}/logs`, so a job
 * that logged half a million lines costs one page, not the whole log. A
 * level or attempt filter asks the server for the matching lines (among the
 * newest 10,000), a page at a time too. The page and its size are in the
 * URL as every list's (`jobs/{id}?page=3&size=25`; without a page, the
 * newest lines), the size remembered for the board's next lists.
 *
 * @module
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ErrorBanner } from "../../components/error_banner.ts";
import { PagedList } from "../../components/paged_list.ts";
import { Pagination } from "../../components/pagination.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { useStepBackWhenEmpty, useUrlPager } from "../../lib/use_url_pager.ts";
import type { PageSize } from "../../lib/page_query.ts";
import { LogsTable } from "./logs_table.ts";
import type { JobDetail, LogLine } from "./types.ts";

/** Lines per page unless the URL or the remembered size says otherwise: what the job carries. */
const PAGE_SIZE = 100;

const LEVELS = ["info", "warn", "error"];

/**
 * A page of lines: the query it answers, the filter of that query, its
 * lines, how many match, and where it starts (the pager's label says these,
 * not the URL, which runs ahead while the next page loads).
 */
interface LogPage {
  query: string;
  filter: string;
  logs: LogLine[];
  total: number;
  offset: number;
  limit: number;
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
  // Page 1 is the oldest lines: the URL without a page shows the newest.
  const pager = useUrlPager(`/${href("jobs", job.id)}`, PAGE_SIZE, true);
  const { size } = pager;
  // null: the newest lines.
  const offset = pager.named ? pager.offset : null;
  const [level, setLevel] = useState("");
  const [attempt, setAttempt] = useState("");
  const [page, setPage] = useState<LogPage | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const filtered = level !== "" || attempt !== "";
  const newest = Math.max(0, job.logCount - size);
  const at = offset ?? (filtered ? 0 : newest);
  const filter = `level=${level}&attempt=${attempt}`;
  const query = `offset=${at}&limit=${size}&${filter}`;
  // The newest lines the job itself carries (live with it), when they fill the page.
  const fromJob = offset === null && !filtered &&
    (size <= job.logs.length || job.logs.length === job.logCount);

  useEffect(() => {
    setError(null);
    if (fromJob) return;
    const abort = new AbortController();
    api.getPage("/jobs/{jobId}/logs", {
      params: { jobId: job.id },
      query: {
        offset: at,
        limit: size,
        level,
        attempt: attempt ? Number(attempt) : undefined,
      },
      signal: abort.signal,
    })
      .then(
        ({ items, total }) =>
          setPage({ query, filter, logs: items, total, offset: at, limit: size }),
        (err: Error) => {
          if (!abort.signal.aborted) setError(err);
        },
      );
    return () => abort.abort();
  }, [job.id, query]);

  const read = page?.query === query ? page : null;
  // A link past the end (a page of a log since trimmed) opens the last page.
  useStepBackWhenEmpty(
    useMemo(() => read && { ...read, items: read.logs }, [read]),
    pager.setOffset,
  );
  const answered: LogPage | null = fromJob
    ? { query, filter, logs: job.logs.slice(-size), total: job.logCount, offset: at, limit: size }
    : read;
  // While the next page of the same filter loads, the last one stays, with its label.
  const kept = useRef<LogPage | null>(null);
  if (answered) kept.current = answered;
  const shown = answered ?? (kept.current?.filter === filter ? kept.current : null);
  const refilter = (set: (value: string) => void) => (value: string) => {
    set(value);
    pager.setOffset(null);
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
    ${shown === null ? html`<p class="muted" role="status">Loading log lines…</p>` : html`
      <${PagedList} busy=${answered === null && error === null}>
        <${LogsTable} logs=${shown.logs} jobId=${job.id} />
        <${Pagination}
          offset=${shown.offset}
          limit=${shown.limit}
          total=${shown.total}
          onChange=${(next: number) =>
            // The URL names whole pages: a move from the newest lines (not on a page's start) goes
            // to the page holding the line before them, so no line is skipped.
            pager.setOffset(!filtered && next >= newest ? null : next + size - 1)}
          onSize=${(next: PageSize, nextOffset: number) =>
            pager.setSize(next, offset === null ? null : nextOffset)}
        />
        <//>
    `}
  `;
}
