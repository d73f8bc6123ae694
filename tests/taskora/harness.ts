/**
 * A real taskora App (../shared/taskora/taskora.js, taskora 0.5.0) on a
 * throwaway redis-server, with real workers, and the board embedded with
 * `createBoard(app)`; plus polling helpers that wait for a condition with a
 * deadline (never a fixed sleep).
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import type { BoardOptions } from "../../mod.ts";
import { createBoardOn } from "../../src/board.ts";
import { systemTimers, type Timers } from "../../src/timers.ts";
import { createAppSource } from "../../src/taskora/mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { pairedStore } from "../../src/store/pairing.ts";
import { createTaskora, memoryAdapter, redisAdapter } from "../../../shared/taskora/taskora.js";

export { createTaskora, memoryAdapter, redisAdapter };

/** A board and what the test drives it with. */
export interface AppWorld {
  app: any;
  board: ReturnType<typeof createBoardOn>;
  url: string;
  /** GET a path under `/board/api`, parsed. */
  get(path: string): Promise<{ status: number; body: any }>;
  /** POST (or another method) JSON to a path under `/board/api`, parsed. */
  send(
    path: string,
    body?: unknown,
    init?: { method?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
}

async function call(
  board: ReturnType<typeof createBoardOn>,
  path: string,
  init: RequestInit,
): Promise<{ status: number; body: any }> {
  const response = await board.fetch(new Request(`http://localhost/board/api${path}`, init));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * How often a board on the App's URL looks for new tasks, ms: a task's
 * first job makes its keys, and the board's event reader follows the new
 * stream from its next look. At the default (every 5 s of the wall clock)
 * each test that dispatched to a new task waited up to that long for the
 * board to record or show it (`redis_history_cap_test.ts`, two tasks: 21 s,
 * 4 s at this pace).
 */
const URL_BOARD_DISCOVERY_MS = 100;

/**
 * Builds a world around an App made by `define(app)` before `app.start()`.
 * The board is `createBoard(app)`, or with `boardOn: "url"` a standalone
 * board on the App's Redis URL (a Redis source that looks for new tasks
 * every {@link URL_BOARD_DISCOVERY_MS}), which writes with its own scripts
 * what the App's workers then run.
 */
export async function withApp(
  kind: "redis" | "memory",
  define: (app: any) => void,
  fn: (world: AppWorld) => Promise<void>,
  options: {
    start?: boolean;
    boardOn?: "app" | "url";
    board?: BoardOptions;
    timers?: Timers;
    /** More options of the App (`retention`, ...). */
    app?: Record<string, unknown>;
  } = {},
): Promise<void> {
  const redis = kind === "redis" ? await startRedis() : null;
  const app = createTaskora({
    adapter: redis ? redisAdapter(redis.url) : memoryAdapter(),
    scheduler: { pollInterval: 100 },
    ...options.app,
  });
  try {
    define(app);
    const timers = options.timers ?? systemTimers;
    const source = options.boardOn === "url" && redis
      ? createRedisSource({ url: redis.url, discoveryIntervalMs: URL_BOARD_DISCOVERY_MS })
      : null;
    const board = createBoardOn(timers, source ?? app, options.board);
    try {
      if (options.start !== false) await app.start();
      await fn({
        app,
        board,
        url: redis?.url ?? "",
        get: (path) => call(board, path, {}),
        send: (path, body, init = {}) =>
          call(board, path, {
            method: init.method ?? "POST",
            headers: { "content-type": "application/json", ...init.headers },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
      });
    } finally {
      await board.close();
      await source?.close();
    }
  } finally {
    await app.close();
    await redis?.stop();
  }
}

/** Waits until job `id` is in `state` as the board answers it. */
export function waitForState(world: AppWorld, id: string, state: string): Promise<any> {
  return waitFor(async () => {
    const { status, body } = await world.get(`/jobs/${id}`);
    return status === 200 && body.state === state ? body : undefined;
  }, { what: `job ${id} ${state}` });
}

/**
 * Tasks whose outcome the test steers: `flaky` fails while `down`, `slow`
 * runs one job at a time and holds it until released. Three tasks, so that
 * a job of one is not found under another.
 */
export function steerable(app: any) {
  const state = { down: true, release: [] as (() => void)[] };
  app.task("flaky", {
    retry: { attempts: 1 },
    handler: () => {
      if (state.down) throw new Error("service down");
      return "ok";
    },
  });
  app.task("slow", {
    concurrency: 1,
    handler: (_d: unknown, ctx: { signal: AbortSignal }) =>
      new Promise((resolve, reject) => {
        state.release.push(() => resolve("released"));
        ctx.signal.addEventListener("abort", () => reject(new Error("aborted")));
      }),
  });
  app.task("double", { handler: (d: { n: number }) => d.n * 2 });
  return state;
}

/** The App's registered task `name`. */
export function taskOf(app: any, name: string): any {
  return [...app.getRegisteredTasks()].find((t: { name: string }) => t.name === name);
}

/**
 * A task, `charge-card`, retried three times, each attempt failing with its
 * own error (`gateway timeout #n`) once the test lets it: taskora keeps only
 * a job's last error, so a test sees each recorded before the next fails.
 * `options` are more of the task's (`stall`, ...).
 */
export function failingThrice(options: Record<string, unknown> = {}) {
  let tries = 0;
  const opened: (() => void)[] = [];
  // More gates than attempts: a run taskora's stall check made again finds one open.
  const gates = Array.from({ length: 10 }, () => new Promise<void>((r) => opened.push(r)));
  return {
    define(app: any) {
      app.task("charge-card", {
        ...options,
        retry: { attempts: 3, backoff: "fixed", delay: 1 },
        handler: async (_data: unknown, ctx: { heartbeat(): void }) => {
          const attempt = ++tries;
          await gates[attempt - 1];
          // Renewing the lock before the end takes the job off taskora's stall check's list:
          // else a check between the end and the next renewal would run it again (0.5.0).
          ctx.heartbeat();
          throw new Error(`gateway timeout #${attempt}`);
        },
      });
    },
    /** Lets each attempt fail in turn, once `recorded(attempt)` holds for the one before. */
    async failEach(recorded: (attempt: number) => Promise<boolean>) {
      for (let attempt = 1; attempt <= 3; attempt++) {
        opened[attempt - 1]();
        await waitFor(() => recorded(attempt), { what: `attempt ${attempt} recorded` });
      }
    },
    /** Lets every attempt end, so that none is left waiting when a test stops early. */
    release: () => opened.forEach((open) => open()),
  };
}

/** Two sources made on `app` (two boards' sources) count the same scan slots. */
export async function assertBoardsShareScanSlots(app: any): Promise<void> {
  const [first, second] = [0, 1].map(() => createAppSource(app));
  const claim = (id: string) => ({ id, user: "vic", mutator: false, max: 4, ttlMs: 30_000 });
  try {
    assert.equal(await pairedStore(first)!.takeScanSlot(claim("a")), null);
    assert.equal(await pairedStore(second)!.takeScanSlot(claim("b")), null);
    assert.deepEqual(await pairedStore(first)!.takeScanSlot(claim("c")), {
      reason: "user",
      held: 2,
    });
    await pairedStore(second)!.releaseScanSlot(claim("a"));
    assert.equal(await pairedStore(first)!.takeScanSlot(claim("c")), null);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
}

/**
 * Tasks whose handlers run until the test releases them, so their jobs stay
 * active: `hold` (taskora's stall check every 30 s: none runs while a test
 * reads) and `watched` (a stall check every 100 ms, which fills the stalled
 * set long before the worker's 10 s renewal); with `schedule`, an hourly
 * schedule of `hold`.
 */
export function holding({ schedule = false } = {}) {
  const releases: (() => void)[] = [];
  let released = false;
  // A run that starts after the release ends at once: the worker calls the handler a moment
  // after the job reads active, and a test's reads can end first under load; that run held the
  // App's close until taskora's 30 s job timeout.
  const handler = () =>
    released
      ? Promise.resolve("done")
      : new Promise<string>((resolve) => releases.push(() => resolve("done")));
  return {
    define(app: any) {
      app.task("hold", { handler });
      app.task("watched", { handler, stall: { interval: 100, maxCount: 5 } });
      if (schedule) app.schedule("hourly", { task: "hold", every: "1h", data: {} });
    },
    release: () => {
      released = true;
      releases.splice(0).forEach((release) => release());
    },
  };
}

/** Dispatches a job of `task` and waits until a worker runs it; its id. */
export async function dispatchActive(world: AppWorld, task: string): Promise<string> {
  const id = String(await taskOf(world.app, task).dispatch({}));
  await waitForState(world, id, "active");
  return id;
}
