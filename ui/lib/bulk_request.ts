/**
 * What bulk actions send (the task page's, the dead-letter queue's checked
 * jobs): the dry run that counts, then the start of the operation
 * (`POST /bulk`); its cancel, and waiting for its end. The answers are the
 * contract's.
 *
 * @module
 */
import type { Api } from "./api.ts";
import { formatCount, formatCountOf } from "./format.ts";
import type { BulkAction, BulkOperation, BulkSelector } from "../../src/contract/bulk.ts";

export type { BulkAction, BulkOperation, BulkSelector };
export { BULK_ACTION_STATES } from "../../src/contract/bulk.ts";

/** How many jobs `action` would act on now; `signal` stops a long count (a filter's). */
export async function countBulk(
  api: Api,
  action: BulkAction,
  selector: BulkSelector,
  signal?: AbortSignal,
): Promise<number> {
  const preview = await api.send("POST", "/bulk", {
    body: { action, selector, dryRun: true },
    signal,
  });
  return preview.count;
}

/** Starts the operation; resolves to it as it starts. */
export async function startBulk(
  api: Api,
  action: BulkAction,
  selector: BulkSelector,
): Promise<BulkOperation> {
  return (await api.send("POST", "/bulk", { body: { action, selector } })).operation;
}

/** How often {@link operationEnd} reads the operation. */
const END_POLL_MS = 200;

/** Resolves to the operation once it has ended (read every 200 ms): for short ones, like a page of checked jobs. */
export async function operationEnd(api: Api, started: BulkOperation): Promise<BulkOperation> {
  let operation = started;
  while (operation.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, END_POLL_MS));
    operation = await api.get("/operations/{id}", { params: { id: started.id } });
  }
  return operation;
}

/** Asks a running operation to stop after its current step. */
export async function cancelBulk(api: Api, id: string): Promise<BulkOperation> {
  const answer = await api.send("POST", "/operations/{id}/cancel", { params: { id } });
  return answer.operation;
}

/** The words of an action: the button, the verb of the dialog, whether it destroys. */
export const ACTION_WORDS: Record<
  BulkAction,
  { label: string; done: string; danger: boolean; consequence: string }
> = {
  retry: {
    label: "Retry",
    done: "retried",
    danger: false,
    consequence: "will be sent back to waiting and run again",
  },
  cancel: {
    label: "Cancel",
    done: "cancelled",
    danger: true,
    consequence: "will be cancelled (active ones: their worker is told to stop)",
  },
  promote: {
    label: "Run now",
    done: "promoted",
    danger: false,
    consequence: "will leave the delayed set and wait to run now",
  },
  delete: {
    label: "Delete",
    done: "deleted",
    danger: true,
    consequence: "will be deleted with their logs, for good",
  },
};

/** What the operation did, in a sentence. */
export function operationOutcome(operation: BulkOperation): string {
  const done = `${formatCountOf(operation.done, "job")} ${ACTION_WORDS[operation.action].done}`;
  const skipped = operation.skipped > 0
    ? `, ${formatCount(operation.skipped)} skipped (a worker moved them on first)`
    : "";
  const { scanned, total } = operation;
  // A filter's total is the range it scans: its progress is how far the scan is.
  const scan = scanned === null
    ? ""
    : ` · scanned ${formatCount(scanned)} of ${formatCount(total)}`;
  switch (operation.status) {
    case "running":
      return scanned === null
        ? `${formatCount(operation.done)} of ${formatCount(total)} done${skipped}`
        : `${done}${skipped}${scan}`;
    case "cancelled":
      return `Cancelled: ${done}${skipped}${scan}`;
    case "failed":
      return `Stopped: ${done}${skipped}${scan}. ${operation.error ?? ""}`;
    default:
      return `${done.charAt(0).toUpperCase()}${done.slice(1)}${skipped}`;
  }
}
