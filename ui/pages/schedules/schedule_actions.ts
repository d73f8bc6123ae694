/**
 * The buttons of one schedule row: pause or resume, run now, edit, delete,
 * each only for a user allowed its own action (`schedule.pause`, ...).
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
import { may } from "../../lib/permissions.ts";
import type { BoardConfig } from "../../lib/types.ts";
import type { Schedule } from "./types.ts";

/** Which schedule controls the current user may use, one per action. */
export interface ScheduleControls {
  pause: boolean;
  resume: boolean;
  trigger: boolean;
  update: boolean;
  remove: boolean;
}

/** The controls `config` allows. */
export function scheduleControls(config: Pick<BoardConfig, "allowed">): ScheduleControls {
  return {
    pause: may(config, "schedule.pause"),
    resume: may(config, "schedule.resume"),
    trigger: may(config, "schedule.trigger"),
    update: may(config, "schedule.update"),
    remove: may(config, "schedule.remove"),
  };
}

/** Whether any control is allowed (else the table has no actions column). */
export function anyControl(controls: ScheduleControls): boolean {
  return Object.values(controls).some((allowed) => allowed);
}

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
  { schedule, editing, allowed, onChanged, onTriggered, onEdit }:
    & { schedule: Schedule; editing: boolean; allowed: ScheduleControls }
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

  const mayToggle = schedule.paused ? allowed.resume : allowed.pause;
  return html`
    <div class="schedule-actions" role="group" aria-label=${`Actions for ${name}`}>
      ${mayToggle
        ? html`<button type="button" class="btn btn-small" disabled=${busy} onClick=${togglePause}>
          ${schedule.paused ? "Resume" : "Pause"}
        </button>`
        : null}
      ${allowed.trigger
        ? html`<button type="button" class="btn btn-small" disabled=${busy} onClick=${trigger}>
          Run now
        </button>`
        : null}
      ${allowed.update
        ? html`
          <button
            type="button"
            class="btn btn-small"
            disabled=${busy || editing}
            aria-expanded=${editing ? "true" : "false"}
            onClick=${onEdit}
          >Edit</button>
        `
        : null}
      ${allowed.remove
        ? html`
          <button type="button" class="btn btn-small schedule-delete" disabled=${busy}
            onClick=${remove}>
                    Delete
                  </button>
        `
        : null}
    </div>
  `;
}
