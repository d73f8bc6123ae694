/**
 * One instance of a web app with the board mounted in it, for the process
 * tests: a real taskora App on `--redis` that registers the contracts of the
 * `--task` tasks (it dispatches them; the workers run elsewhere), the board
 * made with `createBoard(app)` (its leases held for `--lease`, as the CLI's
 * flag), listening on `--port`.
 *
 * ```sh
 * deno run -A tests/procs/embedded_board.ts --redis redis://127.0.0.1:6379 --port 3001 --task mail
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createBoard } from "../../mod.ts";
import { parseDuration } from "../../src/duration.ts";
import { createTaskora, defineTask, redisAdapter } from "../../../shared/taskora/taskora.js";

const { values } = parseArgs({
  options: {
    redis: { type: "string" },
    port: { type: "string" },
    task: { type: "string", multiple: true },
    lease: { type: "string" },
  },
});
if (!values.redis || !values.port) throw new Error("give --redis <url> and --port <port>");

const app = createTaskora({ adapter: redisAdapter(values.redis) });
for (const name of values.task ?? []) app.register(defineTask({ name }));
await app.start();
const leaseMs = values.lease === undefined ? undefined : parseDuration(values.lease) ?? undefined;
await createBoard(app, { leaseMs }).listen({ port: Number(values.port), hostname: "127.0.0.1" });
