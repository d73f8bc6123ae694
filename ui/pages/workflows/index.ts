/**
 * The workflows page (`/workflows`): every workflow, newest first, a page at
 * a time (the page offset lives in the URL, so Back returns to it). It
 * reloads when jobs start, finish or are dispatched, which is when
 * workflows change state or appear.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { Pagination } from "../../components/pagination.ts";
import type { Page } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { JobEvent } from "../../lib/live.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import type { WorkflowSummary } from "../workflow/types.ts";
import { WorkflowTable } from "./workflow_table.ts";

/** Workflows per page. */
const PAGE_SIZE = 25;

/** Job events after which a workflow may have changed state or a new one begun. */
const CHANGING_KINDS = new Set([
  "waiting",
  "active",
  "completed",
  "failed",
  "cancelled",
  "expired",
]);

function changesWorkflows(event: JobEvent): boolean {
  return CHANGING_KINDS.has(event.kind);
}

/** The `offset` query parameter, or 0 when absent or not a whole number. */
function offsetFrom(search: string): number {
  const offset = Number(new URLSearchParams(search).get("offset"));
  return Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
}

/** The table and its pages, or what to show while there is none. */
function WorkflowList(
  { page, loading, offset, onPage }: {
    page: Page<WorkflowSummary> | null;
    loading: boolean;
    offset: number;
    onPage(offset: number): void;
  },
) {
  if (!page) {
    return html`<p class="empty" role="status">${loading ? "Loading workflows…" : "No data."}</p>`;
  }
  if (page.total === 0) {
    return html`
      <div class="empty-state">
        <p>No workflows in this store yet.</p>
        <p class="muted">
          They appear here when your app dispatches a <code>chain</code>, <code>group</code> or
          <code>chord</code>.
        </p>
      </div>
    `;
  }
  return html`
    <${WorkflowTable} workflows=${page.items} />
    <${Pagination} offset=${offset} limit=${PAGE_SIZE} total=${page.total} onChange=${onPage} />
  `;
}

/** The workflow list. */
export function WorkflowsPage() {
  const { api, router } = useBoard();
  const offset = offsetFrom(router.search.value);
  const { data, error, loading } = useLiveResource(
    (signal) =>
      api.getPage<WorkflowSummary>(`workflows?limit=${PAGE_SIZE}&offset=${offset}`, { signal }),
    [offset],
    { relevant: changesWorkflows },
  );
  const goTo = (next: number) => router.navigate(next ? `/workflows?offset=${next}` : "/workflows");
  return html`
    <${ErrorBanner} error=${error} />
    <${Card}
      title="Workflows"
      flush=${true}
      actions=${data ? html`<span class="muted">${formatCount(data.total)} workflows</span>` : null}
    >
      <${WorkflowList} page=${data} loading=${loading} offset=${offset} onPage=${goTo} />
      <//>
  `;
}
