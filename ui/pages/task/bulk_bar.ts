/**
 * The bar over a job list while jobs are checked: how many, "all N in this
 * state", the actions that fit the state, and Clear. An action first asks
 * the server how many jobs it would act on now (a dry run), says so in the
 * confirmation, then starts the operation; its progress is
 * {@link BulkProgress}'s.
 *
 * @module
 */
import { confirmAction } from "../../components/confirm_dialog.ts";
import { toastError } from "../../components/toasts.ts";
import type { Api } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount, formatCountOf, shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { JobState } from "../../lib/types.ts";
import {
  ACTION_WORDS,
  BULK_ACTION_STATES,
  type BulkAction,
  type BulkOperation,
  type BulkSelector,
  countBulk,
  startBulk,
} from "../../lib/bulk_request.ts";
import type { Selection } from "../../lib/selection.ts";

/** The actions that act on jobs of `state`. */
export function actionsFor(state: JobState): BulkAction[] {
  return (Object.keys(BULK_ACTION_STATES) as BulkAction[]).filter((action) =>
    BULK_ACTION_STATES[action].includes(state)
  );
}

/**
 * Counts, confirms and starts `action` on `selector`; resolves to the
 * operation, or null when nothing was started (none to act on, backed out,
 * stopped by `counting.signal` while counting, refused: the refusal is
 * shown). `counting.onCounted` is called once the count is in, before the
 * confirmation opens.
 */
export async function confirmAndStart(
  api: Api,
  task: string,
  action: BulkAction,
  selector: BulkSelector,
  what: string,
  counting: { signal?: AbortSignal; onCounted?(): void } = {},
): Promise<BulkOperation | null> {
  const words = ACTION_WORDS[action];
  const { signal } = counting;
  try {
    const count = await countBulk(api, action, selector, signal);
    counting.onCounted?.();
    const jobs = formatCountOf(count, "job");
    const request = {
      title: count === 0 ? `No job to ${words.label.toLowerCase()}` : `${words.label} ${jobs}?`,
      message: count === 0
        ? `None of ${what} can be ${words.done} now: a worker moved them on.`
        : `${jobs} of ${task} ${words.consequence}. Jobs a worker moves on meanwhile are skipped.`,
      confirmLabel: `${words.label} ${jobs}`,
    };
    const confirmed = await confirmAction(
      words.danger ? { ...request, tone: "danger", keepLabel: "Keep jobs" } : request,
    );
    if (!confirmed || count === 0) return null;
    return await startBulk(api, action, selector);
  } catch (error) {
    if (!signal?.aborted) toastError(error);
    return null;
  }
}

/** The bar; nothing when no job is checked (a read-only board shows no boxes to check). */
export function BulkBar(
  { task, state, selection, pageSize, total, onStarted }: {
    task: string;
    state: JobState;
    selection: Selection;
    /** Rows on the page. */
    pageSize: number;
    /** Jobs in the state. */
    total: number;
    onStarted(operation: BulkOperation): void;
  },
) {
  const { api } = useBoard();
  const checked = selection.ids.size;
  if (checked === 0 && !selection.allInState) return null;
  const all = selection.allInState;
  const run = async (action: BulkAction) => {
    const selector: BulkSelector = all ? { task, state } : { task, ids: [...selection.ids] };
    const what = all
      ? `the ${state} jobs`
      : checked === 1
      ? `job ${shortId([...selection.ids][0])}`
      : `the ${formatCount(checked)} checked jobs`;
    const operation = await confirmAndStart(api, task, action, selector, what);
    if (operation) {
      selection.clear();
      onStarted(operation);
    }
  };
  return html`
    <div class="bulk-bar" role="region" aria-label="Selected jobs">
      <span class="bulk-count">${all
        ? `All ${formatCountOf(total, `${state} job`)} selected`
        : `${formatCount(checked)} selected`}</span>
      ${!all && checked === pageSize && total > pageSize
        ? html`
          <button type="button" class="btn btn-small btn-link"
            onClick=${() => selection.setAllInState(true)}>Select all ${formatCountOf(
              total,
              `${state} job`,
            )}</button>
        `
        : null}
      ${all
        ? html`
          <button type="button" class="btn btn-small btn-link"
            onClick=${() => selection.setAllInState(false)}>Only this page's ${formatCount(
              checked,
            )}</button>
        `
        : null}
      <span class="bulk-actions">
        ${actionsFor(state).map((action) =>
          html`
            <button key=${action} type="button"
              class=${ACTION_WORDS[action].danger ? "btn btn-small btn-danger" : "btn btn-small"}
              onClick=${() => run(action)}>${ACTION_WORDS[action].label}</button>
          `
        )}
        <button type="button" class="btn btn-small" onClick=${selection.clear}>Clear</button>
      </span>
    </div>
  `;
}
