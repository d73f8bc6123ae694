/**
 * Dead letters: the failed jobs of every task (or one), as one newest-first
 * list and grouped by error.
 *
 * @module
 */

import { type DeadLetterEntry, groupDeadLetters, inGroup } from "../dead_letters.ts";
import type { DeadLetterGroup, JobPage, JobRow, ShownError } from "../types.ts";
import { decodeRow } from "../wire/decode.ts";
import { taskKeys } from "../wire/keys.ts";
import type { Command, RedisConnection } from "./client.ts";
import { CHUNK_SIZE, FAILED_ERRORS, ROW_FIELD_NAMES } from "./scripts.ts";

/**
 * Failed jobs across tasks, most recently failed first. Two round trips:
 * per task ZCARD + ZREVRANGE WITHSCORES of its newest offset+limit members
 * (one pipeline), merged by score; then HMGET of the page's jobs' row fields (one
 * pipeline). Cost grows with (offset + limit) × tasks, not with the sets.
 */
export async function listDeadLetters(
  connection: RedisConnection,
  tasks: readonly string[],
  offset: number,
  limit: number,
  prefix?: string,
): Promise<JobPage> {
  const top = offset + limit;
  const replies = await connection.pipeline(tasks.flatMap((task) => {
    const failed = taskKeys(task, prefix).failed;
    return top > 0
      ? [["ZCARD", failed], ["ZREVRANGE", failed, "0", String(top - 1), "WITHSCORES"]]
      : [["ZCARD", failed], ["ZCARD", failed]];
  }));
  let total = 0;
  const merged: { task: string; id: string; at: number }[] = [];
  tasks.forEach((task, i) => {
    total += replies[i * 2] as number;
    if (top === 0) return;
    const members = replies[i * 2 + 1] as string[];
    for (let j = 0; j + 1 < members.length; j += 2) {
      merged.push({ task, id: members[j], at: Number(members[j + 1]) });
    }
  });
  merged.sort((a, b) => b.at - a.at || byTask(a, b));
  return { jobs: await readJobs(connection, merged.slice(offset, top), prefix), total };
}

function byTask(a: { task: string }, b: { task: string }): number {
  return a.task < b.task ? -1 : a.task > b.task ? 1 : 0;
}

/** The jobs of a page of dead letters without their payloads, in its order (one pipeline of HMGET). */
async function readJobs(
  connection: RedisConnection,
  page: readonly { task: string; id: string }[],
  prefix?: string,
): Promise<JobRow[]> {
  const hashes = await connection.pipeline(
    page.map((
      { task, id },
    ) => ["HMGET", `${taskKeys(task, prefix).jobPrefix}${id}`, ...ROW_FIELD_NAMES]),
  );
  const jobs: JobRow[] = [];
  page.forEach(({ task, id }, i) => {
    const values = hashes[i] as (string | null)[];
    const fields: Record<string, string> = {};
    ROW_FIELD_NAMES.forEach((name, j) => {
      if (values[j] !== null) fields[name] = values[j]!;
    });
    // An id whose hash is gone (every field null) is not shown.
    if (Object.keys(fields).length > 0) jobs.push(decodeRow(task, id, fields));
  });
  return jobs;
}

/**
 * One page of the failed jobs of an error group, most recently failed
 * first, from the group's members (see {@link DeadLetterGroups.members}):
 * one pipeline of HMGET.
 */
export async function listGroupDeadLetters(
  connection: RedisConnection,
  members: readonly DeadLetterEntry[],
  offset: number,
  limit: number,
  prefix?: string,
): Promise<JobPage> {
  const page = members.slice(offset, offset + limit);
  return { jobs: await readJobs(connection, page, prefix), total: members.length };
}

/**
 * Every failed job's id, task, error and failure time: one pipeline of
 * ZCARDs, then one pipeline of script calls that each read 1,000 members.
 */
export async function readDeadLetterEntries(
  connection: RedisConnection,
  tasks: readonly string[],
  prefix?: string,
): Promise<DeadLetterEntry[]> {
  const sizes = (await connection.pipeline(
    tasks.map((task) => ["ZCARD", taskKeys(task, prefix).failed]),
  )) as number[];
  const calls: { task: string; command: Command }[] = [];
  tasks.forEach((task, i) => {
    const keys = taskKeys(task, prefix);
    for (let start = 0; start < sizes[i]; start += CHUNK_SIZE) {
      calls.push({
        task,
        command: {
          script: FAILED_ERRORS,
          keys: [keys.failed],
          args: [keys.jobPrefix, start, start + CHUNK_SIZE - 1],
        },
      });
    }
  });
  const replies = (await connection.pipeline(calls.map((c) => c.command))) as string[][];
  const entries: DeadLetterEntry[] = [];
  replies.forEach((flat, i) => {
    for (let j = 0; j + 2 < flat.length; j += 3) {
      entries.push({
        id: flat[j],
        task: calls[i].task,
        error: flat[j + 2] || null,
        failedAt: Number(flat[j + 1]),
      });
    }
  });
  return entries;
}

/** How long a grouping is served before it is recomputed, ms. */
export const GROUPS_FRESH_MS = 5000;

/**
 * The failed jobs of one scope, newest first, as read at `at`, and their
 * groups by how their errors are shown (a board shows them one way: one
 * grouping per scope).
 */
interface Grouping {
  at: number;
  entries: DeadLetterEntry[];
  groups: Map<ShownError | undefined, DeadLetterGroup[]>;
}

/**
 * Cached groupings by scope (one task, or all). A fresh entry is served as
 * is; a stale one is served while a refresh runs in the background
 * (stale-while-revalidate); a missing one is computed and awaited. After
 * {@link invalidate} (a retry, a clean), a read begun before it answers
 * only those who asked before: a request after gets a read of its own, and
 * the cache never keeps the earlier read, whichever ends last.
 */
export class DeadLetterGroups {
  readonly #read: (task?: string) => Promise<DeadLetterEntry[]>;
  readonly #freshMs: number;
  readonly #cache = new Map<string, Grouping>();
  /** The reads begun since the last invalidation, by scope: a later request shares them. */
  readonly #inFlight = new Map<string, Promise<Grouping>>();
  /** Every read still running, invalidated or not: closing waits for them. */
  readonly #reading = new Set<Promise<Grouping>>();
  /** Counts the invalidations: a read begun before the last one is not kept. */
  #generation = 0;

  /** `read` returns the entries of one task, or of every task when none is given. */
  constructor(read: (task?: string) => Promise<DeadLetterEntry[]>, freshMs = GROUPS_FRESH_MS) {
    this.#read = read;
    this.#freshMs = freshMs;
  }

  /** The groups of one task's failed jobs, or of all tasks', by their errors as `shown`. */
  async get(task?: string, shown?: ShownError): Promise<DeadLetterGroup[]> {
    const grouping = await this.#grouping(task);
    let groups = grouping.groups.get(shown);
    if (!groups) {
      groups = groupDeadLetters(grouping.entries, shown);
      grouping.groups.set(shown, groups);
    }
    return groups;
  }

  /** The failed jobs of one group (of their errors as `shown`), most recently failed first. */
  async members(pattern: string, task?: string, shown?: ShownError): Promise<DeadLetterEntry[]> {
    return inGroup((await this.#grouping(task)).entries, pattern, shown);
  }

  async #grouping(task?: string): Promise<Grouping> {
    const scope = task ?? "";
    const cached = this.#cache.get(scope);
    if (cached && Date.now() - cached.at < this.#freshMs) return cached;
    const refresh = this.#refresh(scope, task);
    if (cached) {
      refresh.catch(() => {});
      return cached;
    }
    return await refresh;
  }

  /** Drops every cached grouping (after failed jobs were retried or removed). */
  invalidate(): void {
    this.#generation++;
    this.#cache.clear();
    this.#inFlight.clear();
  }

  /** Waits for refreshes in flight (before closing the connection). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#reading);
  }

  #refresh(scope: string, task?: string): Promise<Grouping> {
    const shared = this.#inFlight.get(scope);
    if (shared) return shared;
    const generation = this.#generation;
    // Fresh from when the read began: what it holds is as of then.
    const at = Date.now();
    const running: Promise<Grouping> = this.#read(task)
      .then((entries) => {
        entries.sort((a, b) => b.failedAt - a.failedAt || byTask(a, b));
        const grouping: Grouping = { at, entries, groups: new Map() };
        if (generation === this.#generation) this.#cache.set(scope, grouping);
        return grouping;
      })
      .finally(() => {
        this.#reading.delete(running);
        if (this.#inFlight.get(scope) === running) this.#inFlight.delete(scope);
      });
    this.#inFlight.set(scope, running);
    this.#reading.add(running);
    return running;
  }
}
