/**
 * A board to benchmark, in a process of its own and reached over HTTP, so
 * that boards that cannot share one process (another checkout of the
 * project, whose modules have the same URLs relative to another root; the
 * upstream `@taskora/board`, which needs its own import map) are measured
 * the same way, on the same Redis:
 *
 * - {@link ourBoard}: `createBoard(createRedisSource({ url }))` from a
 *   checkout of this project (this one, or a `git worktree` of an earlier
 *   head), run with that checkout's `deno.json`;
 * - {@link upstreamBoard}: the upstream board (`upstream_board.ts`),
 *   `createBoard(app)` on a taskora 0.5.0 App that registers the contracts
 *   of `task-0` … `task-<n-1>` (a contract runs no worker) and is started,
 *   as the upstream's README embeds it.
 *
 * The child is this file, run with `--serve`; it prints `{"port": n}` once
 * it listens (see `board_process.ts`).
 *
 * @module
 */

import { spawnBoardProcess } from "./board_process.ts";
import { extractUpstreamBoard } from "./upstream_board.ts";

/** A board in a child process: `fetch` sends a request's path and query to it. */
export interface ServedBoard {
  /** What the figures are printed under. */
  label: string;
  /** The child's process id (its CPU time: `process_cpu.ts`). */
  pid: number;
  fetch(request: Request): Promise<Response>;
  /** GETs `path` (under `/board`), reads the answer whole, and returns its status. */
  get(path: string): Promise<number>;
  /**
   * Stops the child (`SIGSTOP`) until {@link ServedBoard.resume}: while
   * another board's commands are counted, this one's background work adds none.
   */
  pause(): void;
  resume(): void;
  /** Kills the child (by its pid) and waits for it. */
  close(): Promise<void>;
}

/** How a board is started: the child's arguments and Deno flags. */
export interface BoardTarget {
  label: string;
  denoFlags: string[];
  args: string[];
  /** Removes what starting it needed (the extracted upstream board), once no child runs it. */
  cleanup?: () => Promise<void>;
}

/** This checkout's board, or another checkout's (`root`, its directory). */
export function ourBoard(root = new URL("../../", import.meta.url).pathname): BoardTarget {
  const checkout = Deno.realPathSync(root);
  return {
    label: checkout,
    denoFlags: ["--config", `${checkout}/deno.json`],
    args: ["ours", checkout],
  };
}

/** The upstream board, extracted from the taskora mirror, on an App of `tasks` tasks. */
export async function upstreamBoard(tasks: number): Promise<BoardTarget> {
  const upstream = await extractUpstreamBoard();
  return {
    label: `upstream @taskora/board (${upstream.commit.slice(0, 7)})`,
    denoFlags: ["--config", upstream.config],
    args: ["upstream", upstream.entry, String(tasks)],
    cleanup: upstream.remove,
  };
}

/** Starts `target` on the Redis at `redisUrl`; resolves once it listens. */
export async function serveBoard(target: BoardTarget, redisUrl: string): Promise<ServedBoard> {
  const { child, base } = await spawnBoardProcess(
    new URL(import.meta.url),
    redisUrl,
    target.denoFlags,
    target.args,
  );
  const fetchBoard = (request: Request) => {
    const { pathname, search } = new URL(request.url);
    return fetch(`${base}${pathname}${search}`, { signal: request.signal });
  };
  return {
    label: target.label,
    pid: child.pid,
    fetch: fetchBoard,
    get: async (path) => {
      const response = await fetchBoard(new Request(`http://bench/board${path}`));
      await response.arrayBuffer();
      return response.status;
    },
    pause: () => child.kill("SIGSTOP"),
    resume: () => child.kill("SIGCONT"),
    close: async () => {
      child.kill("SIGKILL");
      await child.status;
    },
  };
}

// ── the child ─────────────────────────────────────────────────────────
if (import.meta.main && Deno.args[0] === "--serve") {
  const [, redisUrl, kind, path, tasks] = Deno.args;
  let fetchBoard: (request: Request) => Response | Promise<Response>;
  if (kind === "ours") {
    const { createBoard } = await import(`file://${path}/mod.ts`);
    const { createRedisSource } = await import(`file://${path}/src/source/redis/mod.ts`);
    fetchBoard = createBoard(createRedisSource({ url: redisUrl })).fetch;
  } else {
    const taskora = new URL("../../../shared/taskora/taskora.js", import.meta.url).href;
    const { createTaskora, defineTask, redisAdapter } = await import(taskora);
    const { createBoard } = await import(`file://${path}`);
    const app = createTaskora({ adapter: redisAdapter(redisUrl) });
    for (let i = 0; i < Number(tasks); i++) app.register(defineTask({ name: `task-${i}` }));
    const board = createBoard(app);
    await app.start();
    fetchBoard = board.fetch;
  }
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, fetchBoard);
  console.log(JSON.stringify({ port: server.addr.port }));
}
