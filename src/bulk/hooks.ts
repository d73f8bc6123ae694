/**
 * What a board does around its bulk operations: their progress goes out on
 * its event stream as `bulk:progress`, an end is recorded in the audit trail
 * (`bulk.<action>`: what it did, what it skipped) by the replica that ended
 * it, and a takeover (`operation.takeover`) by the replica taking it.
 *
 * @module
 */

import { filtersByPayload } from "../auth/payload_access.ts";
import type { BulkOperation } from "../contract/bulk.ts";
import type { Presenter } from "../contract/present.ts";
import type { EventHub } from "../events/hub.ts";
import type { ResolvedOptions } from "../options.ts";
import type { AuditRecord } from "../contract/audit.ts";
import type { BoardStore } from "../store/types.ts";
import type { TaskSource } from "../source/types.ts";
import { OPERATION_TAKEOVER } from "../audit/actions.ts";
import type { AuditTrail } from "../audit/trail.ts";
import { matchReader } from "./filter.ts";
import { bulkSelector } from "./selector.ts";
import type { OperationHooks } from "./operations.ts";

/** What the hooks need of the board. */
export interface OperationHookDeps {
  source: TaskSource;
  store: BoardStore;
  options: ResolvedOptions;
  present: Presenter;
  events: EventHub;
  audit: AuditTrail;
  /**
   * Told each operation this board ended: its steps changed the queue after
   * its `POST` answered (see `OwnChanges.changed`).
   */
  changed?: (task: string) => void;
}

/** What an ended operation did, in words, for the audit trail. */
function summary(operation: BulkOperation): string {
  const { done, skipped, total, status, selection, scanned } = operation;
  const how = status === "done"
    ? ""
    : ` (${status}${operation.error ? `: ${operation.error}` : ""})`;
  if ("filter" in selection) {
    const filter = new URLSearchParams(selection.filter).toString();
    return `${done} done, ${skipped} skipped, of the ${selection.state} jobs matching ${filter} ` +
      `(${scanned} of ${total} scanned)${how}`;
  }
  return `${done} of ${total} done, ${skipped} skipped${how}`;
}

function record(audit: AuditTrail, entry: AuditRecord): void {
  audit.append(entry).catch((error) =>
    console.error("queue-board: cannot record the audit entry", entry, error)
  );
}

/** The hooks of a board's {@link Operations}. */
export function operationHooks(
  { source, store, options, present, events, audit, changed = () => {} }: OperationHookDeps,
): OperationHooks {
  return {
    source,
    store,
    parse: (selector, action) => bulkSelector(selector, action, options.redact),
    matches: (selector) => matchReader(source, present, selector),
    onProgress: (operation) =>
      events.publish("bulk:progress", operation, operation.task, {
        payloadsOnly: filtersByPayload(operation.selection),
      }),
    onFinish(finished) {
      // The steps write job events, but a delete writes none: reread the counts.
      events.invalidate(finished.task);
      changed(finished.task);
      const failed = finished.status === "failed";
      record(audit, {
        at: finished.finishedAt ?? Date.now(),
        user: finished.user,
        action: `bulk.${finished.action}`,
        target: finished.id,
        task: finished.task,
        count: finished.done,
        outcome: failed ? "error" : "ok",
        status: failed ? 500 : 200,
        code: finished.errorCode,
        detail: summary(finished),
      });
    },
    onTakeover(operation, from) {
      record(audit, {
        at: Date.now(),
        user: operation.user,
        action: OPERATION_TAKEOVER,
        target: operation.id,
        task: operation.task,
        count: operation.done,
        outcome: "ok",
        status: 200,
        code: null,
        detail:
          `${operation.runner} took over bulk.${operation.action} from ${
            from ?? "no replica"
          } (its lease ran out or it was given back), at ${operation.done} of ` +
          `${operation.total} done`,
      });
    },
    following: () => events.state().clients > 0,
    onStart: () => void store.feed?.mark("operations").catch(() => {}),
  };
}
