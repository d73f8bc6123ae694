/**
 * The task's jobs: one tab per state with its count, the filter form, and
 * either a page of the selected state's jobs kept live (rows updated in
 * place by events, the list reloaded when jobs change state) or, when the
 * URL holds a filter, the search's matches.
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";
import { ErrorBanner } from "../../components/error_banner.ts";
import { PagedList } from "../../components/paged_list.ts";
import { Pagination } from "../../components/pagination.ts";
import { RetryingAsOf } from "../../components/retrying_as_of.ts";
import { Tabs } from "../../components/tabs.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { ExportLinks } from "../../components/export_links.ts";
import { html } from "../../lib/html.ts";
import { placedAt, urlOf } from "../../lib/api.ts";
import { type JobState, STATES, type TaskStats } from "../../lib/types.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { useStepBackWhenEmpty, useUrlPager } from "../../lib/use_url_pager.ts";
import { href } from "../../lib/router.ts";
import { taskCounts } from "../../lib/live.ts";
import type { Job } from "../job/types.ts";
import { ActiveJobs } from "./active_liveness.ts";
import { FilterForm } from "./filter_form.ts";
import { JobTable } from "./job_table.ts";
import { useLiveRows } from "./live_rows.ts";
import { hasFilter } from "./search_query.ts";
import { SearchResults } from "./search_results.ts";
import { actionsFor, BulkBar } from "./bulk_bar.ts";
import type { BulkOperation } from "../../lib/bulk_request.ts";
import { BulkProgress } from "./bulk_progress.ts";
import { MatchingActions } from "./matching_actions.ts";
import { rowActionsOf } from "./row_actions.ts";
import { useSelection } from "../../lib/selection.ts";
import { may } from "../../lib/permissions.ts";

/** Events that change which jobs a state holds; progress is applied to the rows instead. */
export const changesJobs = (task: string) => (event: { task: string; kind: string }) =>
  event.task === task && event.kind !== "progress";

const NO_JOBS: readonly Job[] = [];

/** One state's jobs; a new `changes` count (after a bulk action) reloads them. */
function JobList(
  { task, state, changes, onStarted }: {
    task: string;
    state: JobState;
    changes: number;
    onStarted(operation: BulkOperation): void;
  },
) {
  const { api, config } = useBoard();
  const { offset, size, setOffset, setSize } = useUrlPager(`/${href("tasks", task)}`);
  const [paused, setPaused] = useState(false);
  const { data, error, loading, reload } = useLiveResource(
    (signal) =>
      placedAt(
        api.getPage("/tasks/{task}/jobs", {
          params: { task },
          query: { state, limit: size, offset },
          signal,
        }),
        offset,
        size,
      ),
    [task, state, offset, size],
    {
      relevant: changesJobs(task),
      follows: (stats) => taskCounts(stats, task)?.[state],
      paused,
      keepWithin: [task, state],
    },
  );
  const rows = useLiveRows(task, data?.items ?? NO_JOBS, paused);
  const selection = useSelection(rows);
  // A read-only board offers no action, so nothing to check either.
  const editable = may(config, "bulk.start") && actionsFor(state).length > 0;
  const actions = editable ? rowActionsOf(task, onStarted) : undefined;
  useEffect(() => {
    if (changes > 0) reload();
  }, [changes]);

  useStepBackWhenEmpty(data, setOffset);
  const total = data?.total ?? 0;

  if (!data) {
    return html`
      <${ErrorBanner} error=${error} />
      <p class="empty" role="status">${loading ? "Loading…" : "No data."}</p>
    `;
  }
  return html`
    <div class="list-live">
      <button type="button" class="btn btn-small" aria-pressed=${paused}
        onClick=${() => setPaused(!paused)}>${paused
          ? "Resume live updates"
          : "Pause live updates"}</button>
      ${paused ? html`<span class="muted">Paused: the list stays as it is.</span>` : null}
      <${ExportLinks}
        path=${`api/${urlOf("/tasks/{task}/jobs/export", { params: { task }, query: { state } })}`}
        label=${`the ${state} jobs of ${task}`}
      />
    </div>
    <${ErrorBanner} error=${error} />
    <${BulkBar}
      task=${task}
      state=${state}
      selection=${selection}
      pageSize=${rows.length}
      total=${total}
      onStarted=${onStarted}
    />
    <${PagedList} busy=${loading}>
      ${state === "active"
        ? html`
          <${ActiveJobs} task=${task} jobs=${rows} selection=${editable ? selection : undefined}
            actions=${actions} />
        `
        : rows.length === 0
        ? html`<p class="empty">No ${state} jobs</p>`
        : html`
          <${JobTable} jobs=${rows} state=${state} selection=${editable ? selection : undefined}
            actions=${actions} />
        `}
      <${Pagination}
        offset=${data.offset}
        limit=${data.limit}
        total=${total}
        estimated=${state === "retrying" || state === "delayed"}
        onChange=${setOffset}
        onSize=${setSize}
      />
    <//>
  `;
}

/** A tab's count, tinted in its state's colour when the state has jobs. */
function Count({ state, n }: { state: JobState; n: number }) {
  return html`<span class=${n > 0 ? `tab-count state-${state}` : "tab-count"}>${
    formatCount(n)
  }</span>`;
}

/** The tabbed job list of a task; `stats` null while the counts load. */
export function JobsCard(
  { task, state, stats, retryingAsOf, changes, onSelect }: {
    task: string;
    state: JobState;
    stats: TaskStats | null;
    /** Since when the retrying count is exact (null: not counted yet; undefined: unknown). */
    retryingAsOf?: number | null;
    /** Counts the bulk actions done on this page; each reloads the list. */
    changes: number;
    onSelect(state: JobState): void;
  },
) {
  const search = useBoard().router.search.value;
  const [operation, setOperation] = useState<BulkOperation | null>(null);
  const [ended, setEnded] = useState(0);
  return html`
    <section class="card task-jobs">
      ${operation
        ? html`
          <${BulkProgress}
            key=${operation.id}
            started=${operation}
            onEnded=${() => setEnded((n) => n + 1)}
            onDismiss=${() => setOperation(null)}
          />
        `
        : null}
      <${Tabs}
        items=${STATES.map((s) => ({
          key: s,
          label: s,
          badge: stats ? html`<${Count} state=${s} n=${stats[s]} />` : "…",
        }))}
        selected=${state}
        onSelect=${(key: string) => onSelect(key as JobState)}
        label="Job state"
        idPrefix="task-state"
      />
      <div id="task-state-panel" role="tabpanel" aria-labelledby=${`task-state-tab-${state}`}>
        ${state === "retrying" || state === "delayed"
          // Both counts hang on the retrying split: said once, above the list, not in a tab.
          ? html`
            <p class="jobs-as-of">
              <${RetryingAsOf} at=${retryingAsOf} what="retrying" />
            </p>
          `
          : null}
        <${FilterForm} key=${`${state}${search}`} task=${task} state=${state} />
        ${hasFilter(search)
          ? html`
            <${MatchingActions} task=${task} state=${state} onStarted=${setOperation} />
            <${SearchResults} key=${`${state}:${ended}`} task=${task} state=${state}
              onStarted=${setOperation} />
          `
          : html`
            <${JobList}
              key=${state}
              task=${task}
              state=${state}
              changes=${changes + ended}
              onStarted=${setOperation}
            />
          `}
      </div>
    </section>
  `;
}
