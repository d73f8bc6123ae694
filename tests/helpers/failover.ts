/**
 * What the failover tests ask of a board while its Redis master goes away:
 * a retry repeated until the board confirms it, with every answer on the
 * way saying the store is away, never a 500.
 *
 * @module
 */

import assert from "node:assert/strict";
import { waitFor } from "./wait_for.ts";

/** Calls the board's API: a path under `/board/api` and the request's init. */
export type Api = (path: string, init?: RequestInit) => Response | Promise<Response>;

/** What the board answers while it cannot reach the store, or cannot tell how a write ended. */
const AWAY = /^50[34] (STORE_UNAVAILABLE|OUTCOME_UNKNOWN)$/;

/**
 * POSTs a retry of `jobId` until the board confirms it (200) or says it had
 * already run (409), and returns every status it answered, in order. Each
 * answer before the last must be a 503 or 504 naming the store.
 */
export async function retryUntilServed(api: Api, jobId: string): Promise<number[]> {
  const answers: string[] = [];
  const served = async () => {
    const response = await api(`/jobs/${jobId}/retry`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const body = await response.json();
    answers.push(`${response.status} ${body.code ?? ""}`.trim());
    return response.status === 200 || response.status === 409;
  };
  try {
    // A hung-test guard, not a bound on the failover: an election on a loaded machine takes long.
    await waitFor(served, {
      what: `the board to serve the retry of ${jobId} again`,
      everyMs: 100,
      limitMs: 90_000,
    });
  } catch (error) {
    // What it answered says where it stuck: the store away, or something else.
    const last = answers.slice(-5).join(", ");
    throw new Error(`${(error as Error).message}; its last answers: ${last}`, { cause: error });
  }
  for (const answer of answers.slice(0, -1)) assert.match(answer, AWAY, answers.join(", "));
  return answers.map((answer) => Number(answer.slice(0, 3)));
}

/**
 * Waits until a replica holds every write its master took, asking `WAIT 1
 * <ms>` through `wait` (which answers how many replicas acknowledged) until
 * one did: on a loaded machine a replica can still be syncing after one
 * WAIT's timeout, and a master killed then takes the writes with it.
 */
export async function replicated(wait: () => Promise<unknown>): Promise<void> {
  await waitFor(async () => Number(String(await wait()).trim()) >= 1, {
    what: "a replica to hold every write",
  });
}
