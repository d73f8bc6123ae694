/**
 * `GET /events`: the live event stream (server-sent events).
 *
 * - `event: job:<kind>` (`job:active`, `job:completed`, `job:failed`,
 *   `job:retrying`, `job:cancelled`, `job:stalled`, `job:progress`,
 *   `job:waiting`, …) with `{ id, task, at, ...fields }`, fields decoded
 *   by the source, `result` and progress objects formatted and redacted.
 * - `event: stats:update` every few seconds with every task's counts, the
 *   totals and `connected` (whether the store answered).
 * - `event: bulk:progress` with a bulk operation of a followed task, as
 *   `GET /operations/{id}` answers it, while it runs and when it ends.
 * - `event: alerts` with `{ firing, byTask, asOf }` on a board with alerts,
 *   when the firing counts change and as the stream opens.
 * - `: ping` comments at least every 15 s; one `retry:` hint at the start.
 * - `?tasks=a,b` limits the job events to those tasks; `stats:update` frames
 *   always carry every task.
 * - A user not allowed `payload.read` (asked with target `*` when the
 *   stream opens) gets job events without results or other values of the
 *   job, and a progress only as a list row shows it.
 *
 * The stream is fed by the board's one {@link EventHub}: opening more
 * streams opens no more store connections. `HEAD /events` answers the
 * headers and opens nothing. Under session login the stream ends when the
 * session expires.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { joinFrames } from "../events/hub.ts";
import { sseResponse } from "../events/sse.ts";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { mayReadPayloads } from "../auth/payload_access.ts";
import type { ResolvedOptions } from "../options.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";

/** Parses `?tasks=a,b` into a set, or null for all tasks. */
function tasksParam(raw: string | undefined): Set<string> | null {
  const names = (raw ?? "").split(",").map((name) => name.trim()).filter((name) => name !== "");
  return names.length > 0 ? new Set(names) : null;
}

/** The longest delay `setTimeout` takes; a later session expiry ends the stream early (it reconnects). */
const MAX_DELAY_MS = 2 ** 31 - 1;

const getEvents = apiRoute({
  method: "get",
  path: "/events",
  tags: ["board"],
  summary: "The live event stream (server-sent events)",
  description: "`event: job:<kind>` (job:active, job:completed, job:failed, job:retrying, " +
    "job:cancelled, job:stalled, job:progress, job:waiting…) with `{ id, task, at, ...fields }`; " +
    "`event: stats:update` every few seconds with every task's counts, the totals and " +
    "`connected`; `event: bulk:progress` with a bulk operation of a followed task, as " +
    "`GET /operations/{id}` answers it; `event: alerts` with `{ firing, byTask, asOf }` (alerts " +
    "firing, in all and per task) when they change and as the stream opens, on a board with " +
    "alerts; `: ping` comments at least every 15 s. `HEAD` answers " +
    "the headers only.",
  request: {
    query: z.object({
      tasks: z.string().optional().openapi({
        description: "Comma-separated task names: only their job events (stats frames carry all)",
      }),
    }),
  },
  ok: { "text/event-stream": { schema: z.string().openapi({ format: "event-stream" }) } },
  okDescription: "A stream of server-sent events, until the client leaves or the session ends",
});

/** Routes under `/events`. */
export function eventRoutes(
  { events, timers, options }: Pick<ApiDeps, "events" | "timers"> & {
    options: Pick<ResolvedOptions, "auth" | "can">;
  },
) {
  return apiRouter<SessionEnv & UserEnv>().openapi(getEvents, async (c) => {
    const tasks = tasksParam(c.req.valid("query").tasks);
    const payloads = c.req.method === "HEAD" || await mayReadPayloads(c, options, "*");
    return sseResponse(c, () => {
      const client = events.connect({ tasks, payloads });
      // The browser left (the runtime aborts the request, or cancels the body): release the
      // client, which ends the stream.
      const { signal } = c.req.raw;
      const leave = () => client.close("client");
      if (signal.aborted) leave();
      signal.addEventListener("abort", leave, { once: true });
      // The session expires, and so does the stream (a stolen or signed-out cookie lives no
      // longer): the browser reconnects and meets the session guard.
      const exp = c.get("sessionExp");
      const expiry = typeof exp === "number"
        ? timers.setTimeout(leave, Math.min(Math.max(0, exp - Date.now()), MAX_DELAY_MS))
        : undefined;
      client.onClose(() => {
        signal.removeEventListener("abort", leave);
        if (expiry !== undefined) timers.clearTimeout(expiry);
      });
      // Signed out everywhere: the stream ends at its next frame (the check is cached, ≤ 5 s).
      // A store that cannot answer keeps the stream (its frames say the store is down); the
      // reconnect meets the guard.
      const sessionRevoked = c.get("sessionRevoked");
      const revoked = sessionRevoked && (() => sessionRevoked().catch(() => false));
      return {
        next: async () => {
          const frames = await client.next();
          if (frames !== null && await revoked?.()) {
            leave();
            return null;
          }
          return frames === null ? null : joinFrames(frames);
        },
        cancel: leave,
      };
    });
  });
}
