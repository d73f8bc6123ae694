/**
 * Waiting for a job as taskora leaves it, read from Redis rather than through
 * a board: a board asked would compete for the boards' lease with the board
 * under test.
 *
 * @module
 */

import { taskKeys } from "../../src/source/wire/keys.ts";
import type { connectClient } from "./redis_server.ts";
import { waitFor } from "./wait_for.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/** Waits until job `id` of `task` is completed in taskora's job hash. */
export async function finished(client: Client, task: string, id: string): Promise<void> {
  await waitFor(
    async () => await client.hGet(`${taskKeys(task).jobPrefix}${id}`, "state") === "completed",
    { what: `job ${id} of ${task} completed` },
  );
}
