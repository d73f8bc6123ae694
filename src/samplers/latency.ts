/**
 * Each task's wait and run percentiles over its newest finished jobs, kept
 * per board and brought up to date at most every `LATENCY_MAX_AGE_MS`:
 * shared by `GET /tasks/{task}/latency` and `GET /metrics`.
 *
 * A task's first read takes its newest `LATENCY_SAMPLE_SIZE` finished jobs;
 * later reads only those finished since the newest one kept (down to its
 * finish time, its jobs of that very millisecond told apart by id), merged
 * in front and the oldest dropped. A refresh so costs O(jobs finished since),
 * at most the sample size, instead of the whole sample each time. A job
 * removed from the finished sets after it was read (cleaned, retried) stays
 * in the sample until newer ones push it out: its times were real.
 *
 * Bounded: `LATENCY_SAMPLE_SIZE` durations per task (three numbers each), for
 * at most `LATENCY_CACHE_TASKS` tasks, the least recently asked dropped first.
 *
 * @module
 */

import {
  durationsOf,
  type FinishedDurations,
  LATENCY_CACHE_TASKS,
  type LatencySample,
  latencySample,
} from "../contract/latency.ts";
import type { LeaseStore } from "../store/leases.ts";
import type { Leadership } from "../leadership.ts";
import type { TaskSource } from "../source/types.ts";

/** How many of a task's newest finished jobs a sample holds. */
export const LATENCY_SAMPLE_SIZE = 1000;
/** How long a sample is served before it is brought up to date, ms. */
export const LATENCY_MAX_AGE_MS = 10_000;

/** Options of {@link createLatencySampler} (tests shrink them). */
export interface LatencySamplerOptions {
  sampleSize?: number;
  maxAgeMs?: number;
  maxTasks?: number;
  /** The clock (ms since the epoch: a sample's `readAt` is read by other processes too). */
  now?: () => number;
  /**
   * The board's leadership among the boards on the store: when given with
   * the {@link LatencySamplerOptions.store}, only the leader reads samples
   * from the source; the others serve what it shared, with its `readAt`.
   */
  leadership?: Leadership;
  /** Where the leader shares its samples and the others note the tasks they are asked for. */
  store?: LeaseStore;
}

/** The shared result holding a task's sample. */
const sharedName = (task: string) => `latency:${task}`;
/** The asked set followers note their tasks in, for the leader to keep fresh. */
const ASKED = "latency";
/** A task asked of no board for this long is no longer refreshed by the leader, ms. */
const ASKED_WITHIN_MS = 60_000;
/** What the leader shares lives this many lease periods unless it shares it again. */
const SHARED_LEASES = 3;

/** Reads and keeps samples; see {@link createLatencySampler}. */
export interface LatencySampler {
  /** The task's sample, brought up to date when the kept one is older than `maxAgeMs`. */
  sample(task: string): Promise<LatencySample>;
}

/** A task's kept sample: its jobs newest first, and the ids of those that finished last. */
interface Kept {
  readAt: number;
  jobs: FinishedDurations[];
  /** Ids of the kept jobs that finished at `jobs[0].finishedAt`. */
  newestIds: Set<string>;
  answer: Promise<LatencySample>;
  /** Whether the leader shared this sample already. */
  shared?: boolean;
}

/**
 * A sampler over `source`. Concurrent asks for one task share one read; a
 * failed read is not kept (the previous sample stays for the next ask).
 *
 * With a `leadership`, a follower asks the store for the leader's sample of
 * the task (one GET, at most once per `maxAgeMs` per task) and notes the
 * task as asked; the leader refreshes, at its lease's turns, every task
 * asked of any board within a minute (at most `maxTasks`), and shares each
 * sample it reads. A follower with no shared sample yet reads its own, as
 * a lone board does.
 */
export function createLatencySampler(
  source: TaskSource,
  options: LatencySamplerOptions = {},
): LatencySampler {
  const sampleSize = options.sampleSize ?? LATENCY_SAMPLE_SIZE;
  const maxAgeMs = options.maxAgeMs ?? LATENCY_MAX_AGE_MS;
  const maxTasks = options.maxTasks ?? LATENCY_CACHE_TASKS;
  const now = options.now ?? Date.now;
  const kept = new Map<string, Kept>();

  async function refresh(task: string, previous: Kept | undefined, readAt: number) {
    const since = previous?.jobs[0]?.finishedAt;
    const read = await source.getFinishedTimings(task, sampleSize, since);
    const fresh = read.filter((t) => !(t.finishedAt === since && previous?.newestIds.has(t.id)));
    const jobs = [...fresh.map(durationsOf), ...previous?.jobs ?? []].slice(0, sampleSize);
    const newest = jobs[0]?.finishedAt;
    const newestIds = new Set(fresh.filter((t) => t.finishedAt === newest).map((t) => t.id));
    if (previous && newest === since) { for (const id of previous.newestIds) newestIds.add(id); }
    return { jobs, newestIds, sample: latencySample(jobs, sampleSize, readAt, maxAgeMs) };
  }

  const leadership = options.leadership;
  const shares = leadership && options.store ? options.store : null;
  const sharedTtlMs = SHARED_LEASES * (leadership?.ttlMs ?? 0);

  /** Keeps `answer` as the task's sample read at `at`, the least recently asked dropped past the cap. */
  function keep(task: string, entry: Kept): void {
    kept.set(task, entry);
    if (kept.size > maxTasks) kept.delete(kept.keys().next().value!);
  }

  /**
   * The leader's sample of the task as shared, else one read here (a task
   * the read refuses is not noted); the task is noted as asked either way.
   */
  async function follow(task: string, previous: Kept | undefined, at: number) {
    const shared = decodeSample(await shares!.readSharedResult(sharedName(task)));
    const answer = shared ?? await readOwn(task, previous, at);
    await shares!.noteAsked(ASKED, task, maxTasks);
    return answer;
  }

  function read(task: string): Promise<LatencySample> {
    const at = now();
    const previous = kept.get(task);
    kept.delete(task);
    if (previous && at - previous.readAt < maxAgeMs) {
      kept.set(task, previous);
      return previous.answer;
    }
    if (!shares || leadership!.leads()) return readOwn(task, previous, at);
    const entry: Kept = {
      readAt: at,
      jobs: previous?.jobs ?? [],
      newestIds: previous?.newestIds ?? new Set(),
      answer: follow(task, previous, at),
    };
    keep(task, entry);
    entry.answer.catch(() => forget(task, entry, previous));
    return entry.answer;
  }

  function readOwn(task: string, previous: Kept | undefined, at: number): Promise<LatencySample> {
    const reading = refresh(task, previous, at);
    const entry: Kept = {
      readAt: at,
      jobs: previous?.jobs ?? [],
      newestIds: previous?.newestIds ?? new Set(),
      answer: reading.then((r) => r.sample),
    };
    keep(task, entry);
    reading.then(
      (r) => {
        entry.jobs = r.jobs;
        entry.newestIds = r.newestIds;
      },
      () => forget(task, entry, previous),
    );
    return entry.answer;
  }

  /** A failed read is not kept: the next ask reads again, from the previous sample. */
  function forget(task: string, entry: Kept, previous: Kept | undefined): void {
    if (kept.get(task) !== entry) return;
    if (previous) kept.set(task, previous);
    else kept.delete(task);
  }

  /** On the leader: the task's sample, brought up to date, shared unless it was already. */
  async function share(task: string): Promise<void> {
    const sample = await read(task);
    const entry = kept.get(task);
    if (!shares || !entry || entry.shared || !leadership!.isLeading) return;
    entry.shared = true;
    await shares.shareResult(sharedName(task), JSON.stringify(sample), sharedTtlMs);
  }

  // At each turn, the leader keeps fresh what any board was asked for.
  leadership?.onTurn((leads) => {
    if (!leads || !shares) return;
    shares.listAsked(ASKED, ASKED_WITHIN_MS).then((tasks) =>
      Promise.all(tasks.slice(0, maxTasks).map((task) => share(task).catch(() => {})))
    ).catch(() => {});
  });

  return { sample: read };
}

/** A shared sample, or null when `text` is none or not one. */
function decodeSample(text: string | null): LatencySample | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<LatencySample> | null;
    const summary = (s: unknown) => typeof s === "object" && s !== null && "histogram" in s;
    if (
      typeof value?.readAt !== "number" || typeof value.jobs !== "number" ||
      !summary(value.wait) || !summary(value.run)
    ) return null;
    return value as LatencySample;
  } catch {
    return null;
  }
}
