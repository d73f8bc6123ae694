/**
 * A job's failed attempts and runs, from the stream entries the memory
 * store keeps, read 1,000 at a time from the newest, as the Redis source
 * reads its task's stream (see `attempt_history.ts`).
 *
 * @module
 */

import {
  type AttemptEntry,
  type AttemptHistory,
  collectAttempts,
  HISTORY_EVENTS,
} from "../attempt_history.ts";
import { decodeEventFields } from "../wire/event_fields.ts";
import type { MemoryStore } from "./store.ts";

/** Stream entries read per chunk, as Redis reads them. */
const CHUNK = 1000;

/** Job `jobId`'s attempts, or null when the store has no such job. */
export async function attemptHistory(
  store: MemoryStore,
  jobId: string,
): Promise<AttemptHistory | null> {
  const job = store.findJob(jobId);
  if (!job) return null;
  const stream = store.task(job.task).stream;
  let end = stream.length;
  return await collectAttempts(job, () => {
    const start = Math.max(0, end - CHUNK);
    const entries = stream.slice(start, end).reverse();
    end = start;
    const found = entries
      .filter((e) => e.jobId === jobId && HISTORY_EVENTS.includes(e.event))
      .map((e): AttemptEntry => {
        const fields = decodeEventFields(e.fields);
        return {
          event: e.event,
          attempt: typeof fields.attempt === "number" ? fields.attempt : null,
          error: typeof fields.error === "string" && fields.error !== "" ? fields.error : null,
          at: e.at,
          nextAttemptAt: typeof fields.nextAttemptAt === "number" ? fields.nextAttemptAt : null,
          action: e.fields.action ?? null,
        };
      });
    return Promise.resolve({
      found,
      scanned: entries.length,
      oldestAt: entries.at(-1)?.at ?? null,
      reachedStart: start === 0,
    });
  });
}
