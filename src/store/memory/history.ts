/**
 * The job history in memory: for a board without Redis (the demo) and as
 * the contract's reference. It keeps the same limits as the other stores.
 *
 * @module
 */

import {
  addToBucket,
  bucketOf,
  entryIncrements,
  pointOf,
  type Resolution,
  RESOLUTIONS,
  ROLLUP_RETENTION_MS,
  type RollupIncrement,
  type RollupPoint,
  sampleFields,
  scopeId,
  scopesOf,
} from "../../history/rollup.ts";
import {
  addCut,
  checkedRollupQuery,
  checkedSearch,
  decodeCursor,
  encodeCursor,
  type HistoryBatch,
  type HistoryCut,
  type HistoryHolding,
  type HistoryLimits,
  historyLimits,
  type HistoryPage,
  type HistorySearch,
  type HistoryStore,
  isAfter,
  matches,
  MAX_TASKS_OF_JOB,
  type RollupQuery,
  searchOrder,
} from "../../history/store.ts";
import {
  type AttemptRecord,
  boundedError,
  byRunAndAttempt,
  type HistoryEntry,
  type JobSummary,
  summaryOf,
  TERMINAL_OUTCOMES,
} from "../../history/summary.ts";

/** What memory keeps of one job. */
interface KeptJob {
  latest: HistoryEntry;
  latestRank: AttemptRecord;
  attempts: Map<string, AttemptRecord>;
  runsEnded: number;
}

function jobKey(task: string, id: string): string {
  return `${task}\0${id}`;
}

/** Options of {@link createMemoryHistoryStore}. */
export interface MemoryHistoryOptions {
  /** How much it keeps (defaults: 7 days or 1M summaries). */
  limits?: Partial<HistoryLimits>;
}

/** A history store in memory. */
export function createMemoryHistoryStore(options: MemoryHistoryOptions = {}): HistoryStore {
  const limits = historyLimits(options.limits);
  const jobs = new Map<string, KeptJob>();
  /** How many summaries each task has. */
  const perTask = new Map<string, number>();
  /** The tasks holding each job id. */
  const tasksById = new Map<string, Set<string>>();
  const rollups = new Map<string, Map<number, Record<string, number>>>();
  let cursors: Record<string, string> = {};
  let capped: HistoryHolding["capped"] = null;
  /** What the caps dropped of each task that has summaries. */
  const cutByTask = new Map<string, HistoryCut>();

  const bucketFields = (resolution: Resolution, scope: string, at: number) => {
    const name = `${resolution}\0${scope}`;
    let buckets = rollups.get(name);
    if (!buckets) rollups.set(name, buckets = new Map());
    const bucket = bucketOf(at, resolution);
    let fields = buckets.get(bucket);
    if (!fields) buckets.set(bucket, fields = {});
    return fields;
  };
  const add = (entry: HistoryEntry, { at, field, by }: RollupIncrement) => {
    for (const scope of scopesOf(entry.task, entry.version)) {
      for (const resolution of RESOLUTIONS) {
        addToBucket(bucketFields(resolution, scopeId(scope), at), field, by);
      }
    }
  };

  const record = (entry: HistoryEntry): boolean => {
    const key = jobKey(entry.task, entry.id);
    const kept = jobs.get(key);
    if (kept?.attempts.has(entry.event)) return false;
    const runsEnded = kept?.runsEnded ?? 0;
    const attempt: AttemptRecord = {
      run: runsEnded + 1,
      attempt: entry.attempt,
      outcome: entry.outcome,
      startedAt: entry.startedAt,
      endedAt: entry.endedAt,
      error: boundedError(entry.error),
    };
    const job = kept ?? {
      latest: entry,
      latestRank: attempt,
      attempts: new Map(),
      runsEnded: 0,
    };
    job.attempts.set(entry.event, attempt);
    if (byRunAndAttempt(attempt, job.latestRank) >= 0) {
      // The creation time stays the first entry's, as on the other stores: a later
      // entry of a job taskora removed carries its own time in its place.
      job.latest = { ...entry, createdAt: job.latest.createdAt };
      job.latestRank = attempt;
    }
    const increments = entryIncrements(entry);
    for (const increment of increments.always) add(entry, increment);
    if (!kept) add(entry, increments.firstOfJob);
    if (TERMINAL_OUTCOMES.has(entry.outcome)) {
      if (runsEnded > 0) add(entry, increments.rerun);
      job.runsEnded++;
    }
    if (!kept) {
      perTask.set(entry.task, (perTask.get(entry.task) ?? 0) + 1);
      let tasks = tasksById.get(entry.id);
      if (!tasks) tasksById.set(entry.id, tasks = new Set());
      tasks.add(entry.task);
    }
    jobs.set(key, job);
    return true;
  };

  const forget = (key: string, job: KeptJob) => {
    const { task, id } = job.latest;
    jobs.delete(key);
    const left = (perTask.get(task) ?? 1) - 1;
    if (left > 0) perTask.set(task, left);
    else {
      perTask.delete(task);
      cutByTask.delete(task);
    }
    const tasks = tasksById.get(id);
    tasks?.delete(task);
    if (tasks?.size === 0) tasksById.delete(id);
  };

  const summaryOfKept = (job: KeptJob): JobSummary =>
    summaryOf(job.latest, [...job.attempts.values()]);

  /** Drops the oldest summaries of `among` (all when no task) until `cap` remain. */
  const cap = (max: number, task?: string) => {
    // Counted, so a write under the caps looks at nothing else.
    if ((task === undefined ? jobs.size : perTask.get(task) ?? 0) <= max) return;
    const among = [...jobs.entries()].filter(([, job]) =>
      task === undefined || job.latest.task === task
    );
    among.sort(([, a], [, b]) => a.latestRank.endedAt - b.latestRank.endedAt);
    for (const [key, job] of among.slice(0, among.length - max)) {
      forget(key, job);
      const cut = { dropped: 1, newestDroppedAt: job.latestRank.endedAt };
      capped = addCut(capped, cut);
      if (perTask.has(job.latest.task)) {
        cutByTask.set(job.latest.task, addCut(cutByTask.get(job.latest.task) ?? null, cut));
      }
    }
  };
  const enforceCaps = (tasks: Iterable<string>) => {
    for (const task of tasks) cap(limits.maxPerTask, task);
    cap(limits.maxSummaries);
  };

  return {
    write(batch: HistoryBatch) {
      let recorded = 0;
      for (const entry of batch.entries) if (record(entry)) recorded++;
      for (const sample of batch.samples ?? []) {
        for (const [field, value] of Object.entries(sampleFields(sample))) {
          for (const resolution of RESOLUTIONS) {
            addToBucket(
              bucketFields(resolution, scopeId({ task: sample.task }), sample.at),
              field,
              value,
            );
          }
        }
      }
      if (batch.cursors) cursors = { ...cursors, ...batch.cursors };
      enforceCaps(new Set(batch.entries.map((entry) => entry.task)));
      return Promise.resolve({ recorded });
    },
    cursors: () => Promise.resolve({ ...cursors }),
    summary(task, id) {
      const job = jobs.get(jobKey(task, id));
      return Promise.resolve(job ? summaryOfKept(job) : null);
    },
    tasksOfJob(id) {
      const tasks = [...tasksById.get(id) ?? []].sort();
      return Promise.resolve(tasks.slice(0, MAX_TASKS_OF_JOB));
    },
    // Async, so a refused query rejects rather than throws.
    // deno-lint-ignore require-await
    async search(query: HistorySearch): Promise<HistoryPage> {
      const checked = checkedSearch(query);
      const position = checked.cursor === undefined ? null : decodeCursor(checked.cursor);
      const found = [...jobs.values()]
        .map(summaryOfKept)
        .map((summary) => ({ summary, at: summary.finishedAt, task: summary.task, id: summary.id }))
        .filter(({ summary, ...at }) =>
          matches(summary, checked) && (position === null || isAfter(at, position))
        )
        .sort(searchOrder);
      const page = found.slice(0, checked.limit);
      const last = page.at(-1);
      return {
        summaries: page.map(({ summary }) => summary),
        next: found.length > page.length && last ? encodeCursor(last) : null,
      };
    },
    // Async, so a refused query rejects rather than throws.
    // deno-lint-ignore require-await
    async rollups(query: RollupQuery): Promise<RollupPoint[]> {
      const { resolution, from, to, ...scope } = checkedRollupQuery(query);
      const buckets = rollups.get(`${resolution}\0${scopeId(scope)}`) ?? new Map();
      return [...buckets.entries()]
        .filter(([at]) => at >= bucketOf(from, resolution) && at < to)
        .sort(([a], [b]) => a - b)
        .map(([at, fields]) => pointOf(at, fields));
    },
    // Its index by id was kept from its first write.
    indexJobIds: () => Promise.resolve(false),
    trim(now: number) {
      const before = jobs.size;
      for (const [key, job] of jobs) {
        if (job.latestRank.endedAt < now - limits.retentionMs) forget(key, job);
      }
      enforceCaps(perTask.keys());
      for (const [name, buckets] of rollups) {
        const resolution = name.slice(0, name.indexOf("\0")) as Resolution;
        for (const at of buckets.keys()) {
          if (at < now - ROLLUP_RETENTION_MS[resolution]) buckets.delete(at);
        }
      }
      return Promise.resolve({ removed: before - jobs.size });
    },
    holding() {
      let oldestAt: number | null = null;
      for (const job of jobs.values()) {
        oldestAt = Math.min(oldestAt ?? Infinity, job.latestRank.endedAt);
      }
      return Promise.resolve({ summaries: jobs.size, oldestAt, capped });
    },
    cuts(task) {
      const tasks = task === undefined ? [...cutByTask.keys()] : [task];
      return Promise.resolve(
        new Map(tasks.flatMap((name) => {
          const cut = cutByTask.get(name);
          return cut ? [[name, { ...cut }]] : [];
        })),
      );
    },
    close: () => Promise.resolve(),
  };
}
