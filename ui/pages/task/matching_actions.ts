/**
 * "All matching this filter": the actions that fit a state, on every job of
 * it the URL's filter matches, not only the page of matches shown. Each
 * first asks the server for the exact count, which scans the whole range
 * (a time range alone on a finished state is counted from the index), so
 * the button says it is counting and offers Stop; the confirmation then
 * names the count, and the operation walks the range as the search does.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import type { JobState } from "../../lib/types.ts";
import { actionsFor, confirmAndStart } from "./bulk_bar.ts";
import { ACTION_WORDS, type BulkAction, type BulkOperation } from "../../lib/bulk_request.ts";
import { filterOf, setParams } from "./search_query.ts";
import { may } from "../../lib/permissions.ts";

/** The bar; nothing on a read-only board or a state no action takes. */
export function MatchingActions(
  { task, state, onStarted }: {
    task: string;
    state: JobState;
    onStarted(operation: BulkOperation): void;
  },
) {
  const { api, config, router } = useBoard();
  const [counting, setCounting] = useState<BulkAction | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const actions = actionsFor(state);
  if (!may(config, "bulk.start") || actions.length === 0) return null;

  const run = async (action: BulkAction) => {
    const controller = new AbortController();
    abort.current = controller;
    setCounting(action);
    const selector = { task, state, filter: setParams(filterOf(router.search.value)) };
    const operation = await confirmAndStart(
      api,
      task,
      action,
      selector,
      `the ${state} jobs matching this filter`,
      { signal: controller.signal, onCounted: () => setCounting(null) },
    );
    if (controller.signal.aborted) return;
    setCounting(null);
    if (operation) onStarted(operation);
  };
  const stop = () => {
    abort.current?.abort();
    setCounting(null);
  };
  return html`
    <div class="bulk-bar matching-actions" role="region" aria-label="Jobs matching the filter">
      <span class="bulk-count">${counting
        ? `Counting every ${state} job that matches…`
        : `Every ${state} job matching this filter`}</span>
      <span class="bulk-actions">
        ${actions.map((action) =>
          html`
            <button key=${action} type="button" disabled=${counting !== null}
              class=${ACTION_WORDS[action].danger ? "btn btn-small btn-danger" : "btn btn-small"}
              onClick=${() => run(action)}>${ACTION_WORDS[action].label} all matching</button>
          `
        )}
        ${counting
          ? html`<button type="button" class="btn btn-small" onClick=${stop}>Stop counting</button>`
          : null}
      </span>
    </div>
  `;
}
