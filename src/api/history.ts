/**
 * The job history's reads (`docs/history.md`): `GET /history/jobs`, a search
 * across every task or one, newest first, and
 * `GET /history/tasks/{task}/jobs/{jobId}`, one job's summary. Both need
 * `history.read`; a summary's stored input and result come only with
 * `payload.read` on the job (`src/history/visible.ts` says what a user
 * sees). With the `history` option off: 404 `HISTORY_OFF`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { BoardError } from "../errors.ts";
import { historyStoreOf, visibleHistoryPage, visibleSummary } from "../history/visible.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { jobIdParam } from "./schema/params.ts";
import { HistoryJobSchema, HistoryPageSchema, HistoryQuerySchema } from "./schema/history.ts";

const tags = ["history"];

const searchHistory = apiRoute({
  method: "get",
  path: "/history/jobs",
  permission: { action: "history.read", taskIn: "query" },
  tags,
  summary: "Search the job history: jobs taskora ran, whether or not it still holds them",
  description: "Newest first (by the end of each job's last attempt), across every task or " +
    "`task`. Every filter given must hold. A page may be shorter than `limit` and still have a " +
    "`next`: a store looks at a bounded number of jobs per call. Input and result only with " +
    "`payload.read`.",
  request: { query: HistoryQuerySchema },
  ok: HistoryPageSchema,
  errors: ["INVALID_PARAM", "HISTORY_OFF"],
});

const getSummary = apiRoute({
  method: "get",
  path: "/history/tasks/{task}/jobs/{jobId}",
  permission: { action: "history.read", task: "{task}" },
  tags,
  summary: "What the history kept of one job: every attempt with its own error, every run",
  request: {
    params: z.object({
      task: z.string().openapi({ description: "A task's name" }),
      jobId: jobIdParam,
    }),
  },
  ok: HistoryJobSchema,
  errors: ["INVALID_PARAM", "HISTORY_OFF", "JOB_NOT_FOUND"],
});

/** The history's routes. */
export function historyRoutes(deps: ApiDeps) {
  const { history } = deps;
  return apiRouter<SessionEnv & UserEnv>()
    .openapi(searchHistory, async (c) => {
      // The page says whether a cap cut the history ("history stops at its cap and says so"):
      // one more small read beside the search, not made by the export's pages.
      const holding = historyStoreOf(history).holding();
      const [page, { capped }] = await Promise.all([
        visibleHistoryPage(c, deps, c.req.valid("query")),
        holding,
      ]);
      return c.json({ ...page, capped }, 200);
    })
    .openapi(getSummary, async (c) => {
      const { task, jobId } = c.req.valid("param");
      const summary = await historyStoreOf(history).summary(task, jobId);
      if (summary === null) {
        throw new BoardError(
          "JOB_NOT_FOUND",
          `The history holds no job "${jobId}" of task "${task}"`,
        );
      }
      return c.json(await visibleSummary(c, deps, summary), 200);
    });
}
