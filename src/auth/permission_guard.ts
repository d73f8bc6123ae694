/**
 * The permission check: every request under `/api` whose route declares an
 * action (a mutation's audited action, a guarded read's `permission`) asks
 * `can(user, action, target)` first, so a route cannot forget it. The target
 * is what the path names; a route acting on one task named outside its path
 * (`?task=`, a bulk selector's `task`) is asked with that task rather than
 * `*`, and one acting on a job with the job's task too, so a `can` that
 * decides per task sees the task whichever way it is reached. A refusal is
 * 403 `FORBIDDEN` naming the action, before the route acts; the refusal
 * recorder writes it to the trail.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import type { SessionEnv } from "./session.ts";
import { actingUser, type UserEnv, userName } from "./user.ts";
import { type Can, canAll } from "./permissions.ts";
import { BoardError } from "../errors.ts";
import type { Action } from "../contract/actions.ts";
import type { AuditedAction, TaskIn } from "../audit/actions.ts";
import type { AuditedRoutes } from "../audit/route_actions.ts";

/** Options of {@link permissionGuard}. */
export interface PermissionGuardOptions {
  /** Decides (the `can` option, or the presets). */
  can: Can;
  /** The path the API is mounted at (`/board/api`), stripped to find the route. */
  mountPath: string;
  /** The action each route needs (`guardedRoutes` of the API). */
  routes: AuditedRoutes;
  /**
   * The task holding a job (null when none does), for a `can` that may
   * decide per task; absent for the presets, which decide by role alone
   * (the lookup would cost a round trip for nothing).
   */
  jobTask?: (jobId: string) => Promise<string | null>;
}

/** The task a request names outside its path, or null (a body that is no JSON is the route's to refuse). */
async function namedTask(c: Context, taskIn: TaskIn): Promise<string | null> {
  let task: unknown;
  if (taskIn === "query") {
    task = c.req.query("task");
  } else {
    try {
      task = (await c.req.json())?.selector?.task;
    } catch {
      return null;
    }
  }
  return typeof task === "string" && task !== "" ? task : null;
}

/**
 * Refuses what the user may not do. Mount it after the guards that name the
 * user (session, auth hook) and the read-only guard, before the audit
 * middleware and every route.
 *
 * @example
 * ```ts ignore
 * api.use("*", permissionGuard({ can: presetCan, mountPath: "/board/api", routes }));
 * ```
 */
export function permissionGuard(
  options: PermissionGuardOptions,
): MiddlewareHandler<SessionEnv & UserEnv> {
  const { can, mountPath, routes, jobTask } = options;

  /** What `can` is asked about: the target, or the task named outside the path; a job's task too. */
  async function targetsOf(c: Context, wanted: AuditedAction): Promise<string[]> {
    if (wanted.taskIn) return [await namedTask(c, wanted.taskIn) ?? wanted.target];
    // A job no task holds is the route's 404.
    const task = wanted.job === undefined || !jobTask ? null : await jobTask(wanted.job);
    return task === null ? [wanted.target] : [wanted.target, task];
  }

  return async function permission(c, next) {
    const path = c.req.path.startsWith(mountPath) ? c.req.path.slice(mountPath.length) : c.req.path;
    const wanted = routes(c.req.method, path);
    if (wanted !== null) {
      const user = actingUser(c);
      const targets = await targetsOf(c, wanted);
      if (!await canAll(can, user, wanted.action as Action, targets)) {
        throw new BoardError(
          "FORBIDDEN",
          `${userName(user)} may not ${wanted.action} on ${targets.join(" of ")}`,
          { param: wanted.action },
        );
      }
    }
    await next();
  };
}
