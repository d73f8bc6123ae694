/**
 * The Logs tab: the newest lines come with the job (and stay live with it);
 * older ones are read a page at a time from `GET /jobs/{id}/logs`, so a job
 * that logged half a million lines costs one page, not the whole log.
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";
import { ErrorBanner } from "../../components/error_banner.ts";
import { Pagination } from "../../components/pagination.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { LogsTable } from "./logs_table.ts";
import type { JobDetail, LogEntry } from "./types.ts";

/** Lines per page: as many as the job's own answer carries. */
const PAGE_SIZE = 100;

/** A page read from the API, and where it starts. */
interface LogPage {
  offset: number;
  logs: LogEntry[];
}

/** The job's log, newest page first, with Previous / Next through the older lines. */
export function JobLogs({ job }: { job: JobDetail }) {
  const { api } = useBoard();
  // null: the newest lines, the ones the job itself carries.
  const [offset, setOffset] = useState<number | null>(null);
  const [page, setPage] = useState<LogPage | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const newest = job.logCount - job.logs.length;

  useEffect(() => {
    setError(null);
    if (offset === null) return;
    const abort = new AbortController();
    api.getPage<LogEntry>(
      `${href("jobs", job.id, "logs")}?offset=${offset}&limit=${PAGE_SIZE}`,
      { signal: abort.signal },
    ).then(
      ({ items }) => setPage({ offset, logs: items }),
      (err: Error) => {
        if (!abort.signal.aborted) setError(err);
      },
    );
    return () => abort.abort();
  }, [job.id, offset]);

  const shown = offset === null ? job.logs : page?.offset === offset ? page.logs : null;
  return html`
    <${ErrorBanner} error=${error} />
    ${shown === null
      ? html`<p class="muted" role="status">Loading log lines…</p>`
      : html`<${LogsTable} logs=${shown} />`}
    <${Pagination}
      offset=${offset ?? newest}
      limit=${PAGE_SIZE}
      total=${job.logCount}
      onChange=${(next: number) => setOffset(next >= newest ? null : next)}
    />
  `;
}
