/**
 * What the job page says about the job's version and its worker: the
 * job's `_v` against the task's version and since (when the App is known),
 * an active job's lock (time left, or "stalled?" when it is gone), and, on
 * a job a schedule created, the schedule and who leads the schedulers.
 *
 * @module
 */
import { LockCell, ReadAge, SchedulerLeaderNote } from "../../components/liveness.ts";
import { Fact } from "../../components/fact.ts";
import { useBoard } from "../../lib/board_context.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { html } from "../../lib/html.ts";
import {
  type Received,
  type TaskLivenessResponse,
  useSchedulerLeadership,
  useTaskLiveness,
} from "../../lib/liveness.ts";
import { NO_APP_NOTE, type TaskDefinition, useTaskDefinition } from "../../lib/task_definition.ts";
import type { Job } from "./types.ts";

/** States whose jobs a worker has yet to start (and so to migrate or refuse). */
const PENDING = new Set(["waiting", "delayed", "retrying"]);

/** `task at v3, since 2: will migrate`, or what else the task's version means for the job. */
export function versionVerdict(job: Job, d: TaskDefinition): string {
  const task = `task at v${d.version}, since ${d.since}`;
  if (!PENDING.has(job.state)) return task;
  if (job.version < d.since) return `${task}: below since, will fail`;
  if (job.version < d.version) return `${task}: will migrate`;
  if (job.version > d.version) return `${task}: newer than this App`;
  return `${task}: current`;
}

/** The job's version, set against its task's. */
export function JobVersion({ job }: { job: Job }) {
  const definition = useTaskDefinition(job.task).data;
  const d = definition?.definition;
  return html`
    v${job.version} <span class="muted">${d
      ? `· ${versionVerdict(job, d)}`
      : definition
      ? html`<span title=${NO_APP_NOTE}>· task version unknown</span>`
      : null}</span>
  `;
}

/** An active job's lock as read: one reading for the whole page (see {@link useJobLock}). */
export type JobLockReading = Received<TaskLivenessResponse>;

/**
 * The lock of the page's job, read once for the whole page, so the header
 * and the diagnosis card count down the same time left on the same clock
 * and go "stalled?" together; null until read, and for a job not active.
 */
export function useJobLock(job: Job | null): JobLockReading | null {
  return useTaskLiveness(job?.task ?? "", job ? [job.id] : [], job?.state === "active").data;
}

/** An active job's lock as read, with the reading's age. */
export function JobLockFact({ reading: data }: { reading: JobLockReading | null }) {
  return html`
    <${Fact} label="Lock">${!data ? "…" : data.known
      ? html`
        <${LockCell} lock=${data.locks[0]} receivedAt=${data.receivedAt} /><br />
        <${ReadAge} receivedAt=${data.receivedAt} />
      `
      : html`<span class="muted" title=${data.reason}>not known</span>`}<//>
  `;
}

/** How often the schedules are read again for the job's schedule: a last run changes rarely. */
const SCHEDULES_READ_GAP_MS = 30_000;

/**
 * The schedule whose last run is job `id`, or null. taskora writes nothing
 * on a job about the schedule that dispatched it: a schedule's `lastJobId`
 * is the only link, so an earlier run of a schedule is not recognised.
 */
function useScheduleRun(id: string): string | null {
  const { api } = useBoard();
  const { data } = useLiveResource(
    (signal) => api.get("/schedules", { signal }),
    [id],
    { relevant: () => false, minGap: SCHEDULES_READ_GAP_MS },
  );
  return data?.find((schedule) => schedule.lastJobId === id)?.name ?? null;
}

/** The schedule that ran the job and who leads the schedulers, in a note line. */
function ScheduleRunLine({ schedule }: { schedule: string }) {
  const leadership = useSchedulerLeadership().data;
  return html`
    <p class="job-note">
      Run of schedule <a class="task-link" href="schedules">${schedule}</a>${leadership
        ? [" · ", html`<${SchedulerLeaderNote} leadership=${leadership} />`]
        : null}
    </p>
  `;
}

/** On a job a schedule created (its last run), that schedule and the scheduler leader. */
export function SchedulerLine({ job }: { job: Job }) {
  const schedule = useScheduleRun(job.id);
  return schedule ? html`<${ScheduleRunLine} schedule=${schedule} />` : null;
}
