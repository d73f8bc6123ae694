/**
 * The workflows page (`/workflows`): every workflow, or those of one state
 * (a tab each), newest first, a page at a time. The state and the page
 * live in the URL (`?state=failed&page=2&size=25`), so Back returns to
 * them; a page past the end steps back to the last. It reloads when jobs start, finish or are dispatched, which is when
 * workflows change state or appear.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { PagedList } from "../../components/paged_list.ts";
import { Pagination } from "../../components/pagination.ts";
import { Tabs } from "../../components/tabs.ts";
import { type Page, type Placed, placedAt } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { JobEvent } from "../../lib/live.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { useStepBackWhenEmpty, useUrlPager } from "../../lib/use_url_pager.ts";
import { WORKFLOW_STATES, type WorkflowState, type WorkflowSummary } from "../workflow/types.ts";
import { WorkflowTable } from "./workflow_table.ts";

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

/** The list's filter: one workflow state, or every workflow. */
type Filter = WorkflowState | "all";

const FILTERS: readonly Filter[] = ["all", ...WORKFLOW_STATES];

/** The filter a query string names; an unknown one falls back to all. */
function filterFrom(search: string): Filter {
  const state = new URLSearchParams(search).get("state") ?? "";
  return (WORKFLOW_STATES as readonly string[]).includes(state) ? state as Filter : "all";
}

/** The URL of a filter's first page. */
function viewPath(filter: Filter): string {
  return filter === "all" ? "/workflows" : `/workflows?state=${filter}`;
}

/** The table and its pages, or what to show while there is none. */
function WorkflowList(
  { page, loading, filter, pager }: {
    page: Placed<Page<WorkflowSummary>> | null;
    loading: boolean;
    filter: Filter;
    pager: ReturnType<typeof useUrlPager>;
  },
) {
  if (!page) {
    return html`<p class="empty" role="status">${loading ? "Loading workflows…" : "No data."}</p>`;
  }
  if (page.total === 0 && filter !== "all") {
    return html`<p class="empty">No ${filter} workflows.</p>`;
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
    <${PagedList} busy=${loading}>
      <${WorkflowTable} workflows=${page.items} />
      <${Pagination}
        offset=${page.offset}
        limit=${page.limit}
        total=${page.total}
        onChange=${pager.setOffset}
        onSize=${pager.setSize}
      />
      <//>
  `;
}

/** The workflow list. */
export function WorkflowsPage() {
  const { api, router } = useBoard();
  const filter = filterFrom(router.search.value);
  const pager = useUrlPager("/workflows", 25);
  const { offset, size } = pager;
  const { data, error, loading } = useLiveResource(
    (signal) =>
      placedAt(
        api.getPage("/workflows", {
          query: { limit: size, offset, state: filter === "all" ? undefined : filter },
          signal,
        }),
        offset,
        size,
      ),
    [filter, offset, size],
    { relevant: changesWorkflows, keepWithin: [filter] },
  );
  useStepBackWhenEmpty(data, pager.setOffset);
  const noun = filter === "all" ? "workflow" : `${filter} workflow`;
  return html`
    <${ErrorBanner} error=${error} />
    <${Card}
      title="Workflows"
      flush=${true}
      actions=${data ? html`<span class="muted">${formatCountOf(data.total, noun)}</span>` : null}
    >
      <${Tabs}
        items=${FILTERS.map((key) => ({ key, label: key }))}
        selected=${filter}
        onSelect=${(key: string) => router.navigate(viewPath(key as Filter))}
        label="Workflow state"
        idPrefix="wf-state"
      />
      <div id="wf-state-panel" role="tabpanel" aria-labelledby=${`wf-state-tab-${filter}`}>
        <${WorkflowList}
          page=${data}
          loading=${loading}
          filter=${filter}
          pager=${pager}
        />
      </div>
      <//>
  `;
}
