/**
 * The buttons of one schedule row: pause or resume, run now, edit, delete.
 * Each reports through a toast; running now and deleting ask first, since
 * one dispatches a real job and the other cannot be undone.
 *
 * @module
 */
import { useState } from "preact/hooks";
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

/** The action buttons; disabled while one of them runs. */
export function ScheduleActions(
  { schedule, editing, onChanged, onTriggered, onEdit }:
    & { schedule: Schedule; editing: boolean }
    & ScheduleActionEvents,
) {
  const { api } = useBoard();
  const [busy, setBusy] = useState(false);
  const path = `schedules/${encodeURIComponent(schedule.name)}`;
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
        ? runAction(() => api.send("POST", `${path}/resume`), () => `Resumed ${name}`)
        : runAction(() => api.send("POST", `${path}/pause`), () => `Paused ${name}`)
    );

  const trigger = () =>
    run(async () => {
      const next = schedule.nextRun === null
        ? ""
        : ` (${formatDateTime(schedule.nextRun, { timeZone: config.timezone })})`;
      const confirmed = await confirmAction({
        title: `Run ${name} now?`,
        message: `One ${config.task} job is dispatched now with the schedule's data. ` +
          `The next scheduled run${next} stays where it is.`,
        confirmLabel: "Run now",
      });
      if (!confirmed) return undefined;
      const result = await runAction(
        () => api.send<{ jobId: string }>("POST", `${path}/trigger`),
        ({ jobId }) => `Triggered ${name}: job ${jobId}`,
      );
      if (result) onTriggered(result.jobId);
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
      return await runAction(() => api.send("DELETE", path), () => `Deleted schedule ${name}`);
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
