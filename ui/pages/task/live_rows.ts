/**
 * Live job events applied to the rows on screen, in place: a `progress`
 * event moves the row's bar, a state event (`completed`, `failed`, …) changes
 * its state, attempt and error, without waiting for the list to reload.
 *
 * `live.subscribe` hands over one batch per animation frame; a whole batch
 * becomes one Map of patches keyed by job id and one state update, and
 * events for jobs that are not on screen are dropped at once. A burst of a
 * thousand events is therefore one render of at most one page of rows.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { useBoard } from "../../lib/board_context.ts";
import type { JobEvent } from "../../lib/live.ts";
import type { JobState } from "../../lib/types.ts";
import type { Job, Progress } from "../job/types.ts";

/** What events can change on a row. */
type RowPatch = Partial<Pick<Job, "state" | "progress" | "attempt" | "error">>;

/** The state a job is in after an event of each kind; kinds not listed leave it. */
const STATE_AFTER: Record<string, JobState> = {
  waiting: "waiting",
  promoted: "waiting",
  delayed: "delayed",
  active: "active",
  retrying: "retrying",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
  expired: "expired",
};

function patchOf(event: JobEvent): RowPatch | null {
  if (event.kind === "progress") return { progress: event.value as Progress };
  const state = STATE_AFTER[event.kind];
  if (!state) return null;
  const patch: RowPatch = { state };
  if (typeof event.attempt === "number") patch.attempt = event.attempt;
  if (typeof event.error === "string") patch.error = event.error;
  return patch;
}

/** Patches collected since the rows were loaded; stale once `rows` is a newer answer. */
interface Patches {
  rows: readonly Job[];
  byId: ReadonlyMap<string, RowPatch>;
}

/**
 * `rows` with the live events of `task` applied; a fresh `rows` (a reload)
 * starts clean. While `paused`, events are not applied.
 */
export function useLiveRows(task: string, rows: readonly Job[], paused = false): Job[] {
  const { live } = useBoard();
  const [patches, setPatches] = useState<Patches>({ rows, byId: new Map() });
  const current = useRef(rows);
  current.current = rows;

  useEffect(() =>
    paused ? undefined : live.subscribe((events) => {
      const onScreen = current.current;
      const ids = new Set(onScreen.map((job) => job.id));
      const batch = new Map<string, RowPatch>();
      for (const event of events) {
        if (event.task !== task || !ids.has(event.id)) continue;
        const patch = patchOf(event);
        if (patch) batch.set(event.id, { ...batch.get(event.id), ...patch });
      }
      if (batch.size === 0) return;
      setPatches((previous) => {
        const byId = new Map(previous.rows === onScreen ? previous.byId : []);
        for (const [id, patch] of batch) byId.set(id, { ...byId.get(id), ...patch });
        return { rows: onScreen, byId };
      });
    }), [live, task, paused]);

  if (patches.rows !== rows || patches.byId.size === 0) return rows as Job[];
  return rows.map((job) => {
    const patch = patches.byId.get(job.id);
    return patch ? { ...job, ...patch } : job;
  });
}
