/**
 * This board beside the upstream `@taskora/board` (issue 35), on one Redis:
 * 20 tasks (`fillCommands`'s mix of states, an hour of counters) and 10
 * schedules written by a taskora 0.5.0 App, at each size of `--jobs`. Each
 * board runs in a process of its own (`board_server.ts`; the upstream one
 * extracted from the taskora mirror, `upstream_board.ts`), alone on the
 * Redis while it is measured, in `--rounds` turns (this checkout, the
 * checkouts given, the upstream; then again), so that a slow minute of the
 * shared machine weighs on every board. A turn warms each path up, then
 * times `--runs` sequential `GET /api/overview` and `GET /api/schedules`
 * over HTTP and counts what Redis ran meanwhile (`INFO commandstats`; a
 * board's own background work in that time included; `BY_COMMAND=1` prints
 * them by command). With `--streams N`, N SSE clients hold each board's event
 * stream open while it is measured (issue 35's "with 100 event streams
 * open"; the counts then include what the streams cost over those seconds).
 *
 * Prints per size and board: the medians (ms) and commands per request of
 * each path, each board's ratio to the upstream's medians (issue 35 wants
 * the overview at most 0.5×, the schedules at most 1×), and the ratio of
 * what each path adds to the floor (`/api/config`, no Redis read: HTTP
 * between two processes, which on a loaded machine is most of a request).
 * Medians, not assertions: a benchmark, not a test.
 *
 * `deno run -A tests/bench/upstream.ts [--jobs 200000,1000000] [--runs 31] [--rounds 2]
 * [--streams 0] [checkout ...]`
 * (default 200,000 jobs, about 2 min; 1,000,000 loads in about a minute more;
 * a checkout is another head's `git worktree`, e.g. /work/prevhead).
 */

import { parseArgs } from "node:util";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { createTaskora, defineTask, redisAdapter } from "../../../shared/taskora/taskora.js";
import { ourBoard, serveBoard, upstreamBoard } from "./board_server.ts";
import { describeLoad, type FilledRedis, startFilledRedis } from "./filled_redis.ts";
import { median } from "./medians.ts";
import { openSseClients } from "./sse_clients.ts";

const TASKS = 20;
const SCHEDULES = 10;
/**
 * `/api/config` reads no Redis on either board: its median is what HTTP, the
 * two processes and each board's middleware cost on this machine, the floor
 * under the other two paths' times.
 */
const FLOOR = "/api/config";
const PATHS = ["/api/overview", "/api/schedules", FLOOR] as const;

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    jobs: { type: "string", default: "200000" },
    runs: { type: "string", default: "31" },
    rounds: { type: "string", default: "2" },
    streams: { type: "string", default: "0" },
  },
});
const RUNS = Number(values.runs);
const ROUNDS = Number(values.rounds);
const STREAMS = Number(values.streams);

/** Writes `SCHEDULES` schedules as taskora does: an App registers them and starts its scheduler. */
async function writeSchedules(redisUrl: string): Promise<void> {
  const app = createTaskora({ adapter: redisAdapter(redisUrl) });
  for (let i = 0; i < SCHEDULES; i++) {
    const task = app.register(defineTask({ name: `task-${i}` }));
    app.schedule(`nightly-${i}`, { task, cron: `${i} 3 * * *`, data: { i } });
  }
  await app.start();
  await app.close();
}

/**
 * Frees the leases a board of the turn before holds (`taskora:board:lease:*`):
 * it was killed, so they run on for a lease period (10 s), and the next board
 * would be a follower meanwhile, reading every task directly where its
 * leader's live state is missing (before, a turn's overview medians were
 * those direct reads, 7.6× the upstream's).
 */
async function freeLeases(client: FilledRedis["client"]): Promise<void> {
  const leases = await client.sendCommand(["KEYS", "taskora:board:lease:*"]) as string[];
  if (leases.length > 0) await client.sendCommand(["DEL", ...leases]);
}

/** Per board and path: every timing (ms) and the commands each request cost. */
type Figures = Map<string, Map<string, { ms: number[]; commands: number[] }>>;

async function measure(jobs: number): Promise<void> {
  const filled = await startFilledRedis(jobs, TASKS);
  await writeSchedules(filled.redis.url);
  console.log(
    `\n## ${
      describeLoad(filled, jobs, TASKS)
    }; ${SCHEDULES} schedules; ${STREAMS} event streams open`,
  );
  const targets = [ourBoard(), ...positionals.map((root) => ourBoard(root))];
  const upstream = await upstreamBoard(TASKS);
  const figures: Figures = new Map();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of [...targets, upstream]) {
        await freeLeases(filled.client);
        const board = await serveBoard(target, filled.redis.url);
        const closeStreams = await openSseClients(board, STREAMS);
        try {
          const byPath = figures.get(board.label) ?? new Map();
          figures.set(board.label, byPath);
          for (const path of PATHS) {
            for (let i = 0; i < 3; i++) await board.get(path);
            const figure = byPath.get(path) ?? { ms: [], commands: [] };
            byPath.set(path, figure);
            const calls = await commandsOf(filled.client, async () => {
              for (let run = 0; run < RUNS; run++) {
                const t0 = performance.now();
                const status = await board.get(path);
                figure.ms.push(performance.now() - t0);
                if (status !== 200) throw new Error(`${board.label} ${path}: ${status}`);
              }
            });
            figure.commands.push(totalCalls(calls) / RUNS);
            if (Deno.env.get("BY_COMMAND")) {
              console.log(`    ${board.label} ${path}`, Object.fromEntries(calls));
            }
          }
        } finally {
          await closeStreams();
          await board.close();
        }
      }
    }
  } finally {
    await upstream.cleanup?.();
    await filled.stop();
  }
  const upstreamFigures = figures.get(upstream.label)!;
  for (const [label, byPath] of figures) {
    const floor = median(byPath.get(FLOOR)!.ms);
    const upstreamFloor = median(upstreamFigures.get(FLOOR)!.ms);
    const cells = PATHS.map((path) => {
      const { ms, commands } = byPath.get(path)!;
      const upstreamMs = median(upstreamFigures.get(path)!.ms);
      const overFloor = path === FLOOR
        ? ""
        : `; over the floor ${((median(ms) - floor) / (upstreamMs - upstreamFloor)).toFixed(2)}×`;
      const ratio = label === upstream.label
        ? ""
        : ` (${(median(ms) / upstreamMs).toFixed(2)}× upstream${overFloor})`;
      return `${path} ${median(ms).toFixed(2)} ms${ratio}, ${median(commands).toFixed(0)} commands`;
    });
    console.log(`${label}: ${cells.join(" · ")}`);
  }
}

for (const jobs of values.jobs.split(",").map(Number)) await measure(jobs);
