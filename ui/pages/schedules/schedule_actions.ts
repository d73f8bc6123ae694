/**
 * The buttons of one schedule row: pause or resume, run now, edit, delete.
 * Each reports through a toast; running now and deleting ask first, since
 * one dispatches a real job and the other cannot be undone.
 *
 * "Run now" sends an idempotency key, made per run the operator asks for and
 * sent again when that run did not succeed: a retry after an unconfirmed
 * answer (504, or the network) then finds the job the first try dispatched
 * instead of dispatching a second one.
 *
 * @module
 */
import { useRef, useState } from "preact/hooks";
import { confirmAction } from "../../components/confirm_dialog.ts";
import { runAction } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatDateTime } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { Schedule } from "./types.ts";

/** What the row needs to hear back from its actions. */
export interface ScheduleActionEvents {
  /** The schedule changed on the server: reload the list. */
  onChanged(): void;
  /** A run was dispatched now, as this job. */
  onTriggered(jobId: string): void;
  /** Open the edit form. */
  onEdit(): void;
}

/** A fresh idempotency key (`crypto.randomUUID` needs a secure context; this does not). */
function newRunKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The action buttons; disabled while one of them runs. */
export function ScheduleActions(
  { schedule, editing, onChanged, onTriggered, onEdit }:
    & { schedule: Schedule; editing: boolean }
    & ScheduleActionEvents,
) {
  const { api } = useBoard();
  const [busy, setBusy] = useState(false);
  // The run asked for and not yet confirmed: kept until a trigger succeeds.
  const runKey = useRef<string | null>(null);
  const params = { name: schedule.name };
  const { name, config } = schedule;

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      if ((await action()) !== undefined) onChanged();
    } finally {
      setBusy(false);
    }
  };

  const togglePause = () =>
    run(() =>
      schedule.paused
        ? runAction(
          () => api.send("POST", "/schedules/{name}/resume", { params }),
          () => `Resumed ${name}`,
        )
        : runAction(
          () => api.send("POST", "/schedules/{name}/pause", { params }),
          () => `Paused ${name}`,
        )
    );

  const trigger = () =>
    run(async () => {
      const next = schedule.nextRun === null
        ? ""
        : ` (${formatDateTime(schedule.nextRun, { timeZone: config.timezone })})`;
      const confirmed = await confirmAction({
        title: `Run ${name} now?`,
        message: `One ${config.task} job is dispatched now with the schedule's data. ` +
          `The next scheduled run${next} stays where it is.` +
          (runKey.current === null ? "" : " Your last try was not confirmed: if it went " +
            "through, this finds its job and dispatches no second one."),
        confirmLabel: "Run now",
      });
      if (!confirmed) return undefined;
      const idempotencyKey = runKey.current ??= newRunKey();
      const result = await runAction(
        () => api.send("POST", "/schedules/{name}/trigger", { params, idempotencyKey }),
        ({ jobId, created, version, versionFrom, expireAtFrom }) =>
          !created
            ? `${name} had already been triggered by the earlier try: job ${jobId}`
            : versionFrom === "recent-jobs"
            ? `Triggered ${name}: job ${jobId}, stamped v${version}, the newest version among ` +
              `${config.task}'s jobs` +
              (expireAtFrom === "not-set" ? ", with no TTL (it never expires)" : "") +
              " (embed the board with the taskora App to use the task's own)"
            : `Triggered ${name}: job ${jobId} (v${version})`,
      );
      if (result) {
        runKey.current = null;
        onTriggered(result.jobId);
      }
      return result;
    });

  const remove = () =>
    run(async () => {
      const confirmed = await confirmAction({
        title: `Delete schedule ${name}?`,
        message: `${name} stops dispatching ${config.task} jobs and its configuration is ` +
          "removed from the store. Jobs it already dispatched are kept. This cannot be undone.",
        confirmLabel: "Delete schedule",
        keepLabel: "Keep schedule",
        tone: "danger",
      });
      if (!confirmed) return undefined;
      return await runAction(
        () => api.send("DELETE", "/schedules/{name}", { params }),
        () => `Deleted schedule ${name}`,
      );
    });

  return html`
    <div class="schedule-actions" role="group" aria-label=${`Actions for ${name}`}>
      <button type="button" class="btn btn-small" disabled=${busy} onClick=${togglePause}>
        ${schedule.paused ? "Resume" : "Pause"}
      </button>
      <button type="button" class="btn btn-small" disabled=${busy} onClick=${trigger}>
        Run now
      </button>
      <button
        type="button"
        class="btn btn-small"
        disabled=${busy || editing}
        aria-expanded=${editing ? "true" : "false"}
        onClick=${onEdit}
      >Edit</button>
      <button type="button" class="btn btn-small schedule-delete" disabled=${busy}
        onClick=${remove}>
        Delete
      </button>
    </div>
  `;
}
