/**
 * Liveness kept current: a task's job locks and stalled set, and the
 * scheduler leader lock (see `src/contract/liveness.ts`). They follow the
 * event stream like every view (a job event of the task reloads them), and
 * since a renewal writes no event, they are read again when the soonest
 * lock on screen would run out by the count, so a lock its worker renewed
 * is never shown as expired. Each answer notes when it arrived, by this
 * browser's clock: times left count down from there.
 *
 * @module
 */
import { useEffect } from "preact/hooks";
import type {
  SchedulerLeadershipResponse,
  TaskLivenessResponse,
} from "../../src/contract/liveness.ts";
import type { Api } from "./api.ts";
import { useBoard } from "./board_context.ts";
import type { JobEvent } from "./live.ts";
import { type LiveResource, useLiveResource } from "./use_live_resource.ts";

export type {
  JobLock,
  SchedulerLeader,
  SchedulerLeadershipResponse,
  TaskLivenessResponse,
} from "../../src/contract/liveness.ts";

/** An answer and when it arrived (ms, this browser's clock). */
export type Received<T> = T & { receivedAt: number };

/** Shortest wait before re-reading a lock that runs out. */
const MIN_REREAD_MS = 1000;

/**
 * What `read` answers kept current (`key` names what it reads): reloaded on
 * `relevant` events, and once the soonest of the times left that `ttls`
 * names (ms, as of its arrival) has run out. Not `enabled`: nothing is read
 * and the data stays null (a hook cannot be called only sometimes).
 */
function useReading<T>(
  read: (api: Api, signal: AbortSignal) => Promise<T>,
  key: string,
  relevant: (event: JobEvent) => boolean,
  ttls: (data: T) => (number | null)[],
  enabled = true,
): LiveResource<Received<T>> {
  const { api } = useBoard();
  const resource = useLiveResource<Received<T> | null>(
    async (signal) => enabled ? { ...await read(api, signal), receivedAt: Date.now() } : null,
    [key, enabled],
    { relevant: (event) => enabled && relevant(event) },
  );
  const data = resource.data;
  const soonest = data ? Math.min(...ttls(data).filter((t): t is number => t !== null)) : Infinity;
  useEffect(() => {
    if (!data || !Number.isFinite(soonest)) return;
    const timer = setTimeout(
      resource.reload,
      Math.max(MIN_REREAD_MS, data.receivedAt + soonest - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [data?.receivedAt, soonest]);
  return { ...resource, data };
}

/** The locks of `ids` (jobs of `task`) and the task's stalled set; nothing read unless `enabled`. */
export function useTaskLiveness(
  task: string,
  ids: readonly string[],
  enabled = true,
): LiveResource<Received<TaskLivenessResponse>> {
  return useReading(
    (api, signal) =>
      api.get("/tasks/{task}/liveness", { params: { task }, query: { id: ids }, signal }),
    JSON.stringify([task, ids]),
    (event) => event.task === task && event.kind !== "progress",
    (data) => data.known ? data.locks.map((lock) => lock.ttlMs) : [],
    enabled,
  );
}

/** Who holds the scheduler leader lock (its renewals write no job event: the re-read keeps it current). */
export function useSchedulerLeadership(): LiveResource<Received<SchedulerLeadershipResponse>> {
  return useReading(
    (api, signal) => api.get("/scheduler", { signal }),
    "scheduler",
    () => false,
    (data) => data.known && data.leader ? [data.leader.ttlMs] : [],
  );
}
