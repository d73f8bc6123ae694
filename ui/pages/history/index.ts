/**
 * The History page (`/history`), opened from the job-ID box: the board's
 * job history (`GET /history/jobs`) searched across every task or one, by
 * state, time window, version, error text and id prefix, newest first,
 * older pages by cursor, and the search as CSV or NDJSON
 * (`GET /history/jobs/export`). Every row is what the history kept of a
 * job, whether or not taskora still holds it; its id opens the job's page,
 * which shows an archived job from the history. Shown only when the board
 * records a history and the user may `history.read`.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { ExportLinks } from "../../components/export_links.ts";
import { urlOf } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { mayReadHistory } from "../../lib/permissions.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { CappedNote } from "./capped_note.ts";
import { FilterBar, type Filters, filtersFrom, queryOf, searchQueryOf } from "./filters.ts";
import { HistoryTable } from "./history_table.ts";

/** Jobs per page. */
const PAGE_SIZE = 50;

/** The page: the search, or why there is none. */
export function HistoryPage() {
  const { config } = useBoard();
  if (mayReadHistory(config)) return html`<${Search} />`;
  return html`
    <${Card} title="History">
      <p class="muted">
        ${config.history
          ? "Your role may not read the job history."
          : "This board records no job history (its history option is off)."}
      </p>
      <//>
  `;
}

function Search() {
  const { api, router } = useBoard();
  const filters = filtersFrom(router.search.value);
  const query = searchQueryOf(filters);
  // Older pages: the cursors of the pages after the first, up to the current one.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const { data, error, loading } = useLiveResource(
    (signal) => api.get("/history/jobs", { query: { ...query, limit: PAGE_SIZE, cursor }, signal }),
    [queryOf(filters), cursor],
    { paused: cursor !== undefined },
  );
  const choose = (next: Filters) => {
    setCursors([]);
    const search = queryOf(next);
    router.navigate(search ? `/history?${search}` : "/history", { replace: true });
  };
  return html`
    <${ErrorBanner} error=${error} />
    <${CappedNote} capped=${data?.capped} />
    <${Card}
      title="History"
      flush=${true}
      actions=${html`
        <${ExportLinks} path=${`api/${urlOf("/history/jobs/export", { query })}`}
          label="the jobs this search finds" />
      `}
    >
      <${FilterBar} filters=${filters} onChange=${choose} />
      <p class="muted list-note">
        What the board kept of each job taskora ran, whether or not taskora still holds it, newest
        first (by the end of its last attempt).
      </p>
      ${!data
        ? html`<p class="empty" role="status">${
          loading ? "Searching the history…" : "No data."
        }</p>`
        : data.jobs.length === 0
        ? html`<p class="empty">No ${cursors.length ? "older " : ""}job in the history${
          Object.keys(filters).length ? " matches this search" : " yet"
        }${data.next ? " on this page: older ones may" : ""}.</p>`
        : html`<${HistoryTable} jobs=${data.jobs} />`}
      <nav class="list-pages" aria-label="History pages">
        <button class="btn" disabled=${cursors.length === 0} onClick=${() =>
          setCursors(cursors.slice(0, -1))}>Newer</button>
        <button class="btn" disabled=${!data?.next} onClick=${() =>
          setCursors([...cursors, data!.next!])}>Older</button>
      </nav>
      <//>
  `;
}
