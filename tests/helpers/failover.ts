/**
 * What the failover tests ask of a board while its Redis master goes away:
 * a retry repeated until the board confirms it, with every answer on the
 * way saying the store is away, never a 500; and, before they kill the
 * master, a wait until a replica holds every write it took.
 *
 * @module
 */

import assert from "node:assert/strict";
import { redisCommand } from "./resp_command.ts";
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

/** The replication offset of the master on `port`: every write it took so far lies before it. */
export async function replicationOffset(port: number): Promise<number> {
  const info = await redisCommand(port, "INFO", "replication");
  const offset = /^master_repl_offset:(\d+)/m.exec(info);
  if (!offset) throw new Error(`no replication offset in the INFO of ${port}: ${info}`);
  return Number(offset[1]);
}

/**
 * Whether an online replica of the master on `port` acknowledged having
 * applied its stream up to `offset`, as the master's `INFO replication`
 * lists them (`slave0:ip=…,port=…,state=online,offset=…`).
 */
export async function acknowledged(port: number, offset: number): Promise<boolean> {
  const info = await redisCommand(port, "INFO", "replication");
  return [...info.matchAll(/^slave\d+:.*state=online,offset=(\d+)/gm)]
    .some(([, acked]) => Number(acked) >= offset);
}

/**
 * Waits until a replica of the master on `port` holds every write the
 * master took before the call: until one acknowledged the master's offset
 * as of then. Not `WAIT 1` on a connection of its own: WAIT counts the
 * replicas that acknowledged the last write of its own connection, and a
 * connection that wrote nothing counts every online replica at once. So it
 * answered 1 while Redis 7.0, just after a replica's full sync, held the
 * stream back until the replica's next acknowledgement (up to 1 s): a
 * master killed then took the fixture with it, and the promoted replica
 * answered every retry 404 JOB_NOT_FOUND (the sentinel failover test, 4
 * runs in 50 on a loaded machine).
 */
export async function replicated(port: number): Promise<void> {
  const offset = await replicationOffset(port);
  await waitFor(() => acknowledged(port, offset), {
    what: `a replica of ${port} to hold every write up to offset ${offset}`,
  });
}
