/**
 * `GET /jobs?prefix=`: the jobs of every task whose id starts with a prefix,
 * for the header's job-ID box when a start of an id opens no one job. It
 * answers from what the source can look at without walking the keyspace
 * (see `TaskSource.findJobsByIdPrefix`: on Redis, the ids this board
 * served lately), lists at most {@link MAX_LOOKUP_MATCHES}, and under auth
 * only jobs of tasks the user may `search`, so a task they may not search
 * neither shows nor counts toward `more`. With the history on, jobs taskora
 * no longer holds are found there too, marked archived.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { searchableTasks, tasksAllowed } from "../auth/task_filter.ts";
import { type JobMatch, MAX_LOOKUP_MATCHES } from "../contract/job_lookup.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { idPrefixParam } from "./schema/params.ts";
import { JobLookupSchema } from "./schema/job_lookup.ts";

const lookup = apiRoute({
  method: "get",
  path: "/jobs",
  permission: { action: "search" },
  tags: ["jobs"],
  summary: "Jobs of every task whose id starts with a prefix",
  description: `At most ${MAX_LOOKUP_MATCHES}, sorted by id, each with its state. The Redis ` +
    "source looks only at the job ids this board listed lately (a prefix search of the " +
    "keyspace would walk every key); a whole id is found by `GET /jobs/{jobId}`.",
  request: { query: z.object({ prefix: idPrefixParam }) },
  ok: JobLookupSchema,
});

/**
 * The jobs taskora no longer holds whose id starts with `prefix`, from the
 * history's newest (one bounded search), of tasks the user may search and
 * `history.read`, leaving out the ids in `held`.
 */
async function archivedMatches(
  c: Context<SessionEnv & UserEnv>,
  { history, options }: Pick<ApiDeps, "history" | "options">,
  prefix: string,
  held: ReadonlySet<string>,
): Promise<JobMatch[]> {
  if (history === null) return [];
  const searchable = searchableTasks(c, options);
  const readable = tasksAllowed(c, options, "history.read");
  const { summaries } = await history.search({ idPrefix: prefix, limit: MAX_LOOKUP_MATCHES + 1 });
  const matches: JobMatch[] = [];
  for (const { id, task, state } of summaries) {
    if (held.has(id)) continue;
    if (searchable && !await searchable(task)) continue;
    if (readable && !await readable(task)) continue;
    matches.push({ id, task, state, archived: true });
  }
  return matches;
}

/** Routes looking jobs up by the start of their id. */
export function jobLookupRoutes(deps: ApiDeps) {
  const { source, options } = deps;
  return apiRouter<SessionEnv & UserEnv>().openapi(lookup, async (c) => {
    const { prefix } = c.req.valid("query");
    const searchable = searchableTasks(c, options);
    const held = await source.findJobsByIdPrefix(prefix, MAX_LOOKUP_MATCHES + 1, searchable);
    const archived = await archivedMatches(c, deps, prefix, new Set(held.map((job) => job.id)));
    const found = [...held, ...archived].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return c.json({
      jobs: found.slice(0, MAX_LOOKUP_MATCHES),
      more: found.length > MAX_LOOKUP_MATCHES,
    }, 200);
  });
}
