/**
 * The permission check: every request under `/api` whose route declares an
 * action (a mutation's audited action, a guarded read's `permission`) asks
 * `can(user, action, target)` first, so a route cannot forget it. A refusal
 * is 403 `FORBIDDEN` naming the action, before the route touches the source;
 * the refusal recorder writes it to the trail.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import { actingUser, type UserEnv, userName } from "../auth/user.ts";
import type { Can } from "../auth/permissions.ts";
import { BoardError } from "../errors.ts";
import type { Action } from "../contract/actions.ts";
import type { AuditedRoutes } from "./audit_routes.ts";

/** Options of {@link permissionGuard}. */
export interface PermissionGuardOptions {
  /** Decides (the `can` option, or the presets). */
  can: Can;
  /** The path the API is mounted at (`/board/api`), stripped to find the route. */
  mountPath: string;
  /** The action each route needs (`guardedRoutes` of the API). */
  routes: AuditedRoutes;
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
  const { can, mountPath, routes } = options;
  return async function permission(c, next) {
    const path = c.req.path.startsWith(mountPath) ? c.req.path.slice(mountPath.length) : c.req.path;
    const wanted = routes(c.req.method, path);
    if (wanted !== null) {
      const user = actingUser(c);
      if (!await can(user, wanted.action as Action, wanted.target)) {
        throw new BoardError(
          "FORBIDDEN",
          `${userName(user)} may not ${wanted.action} on ${wanted.target}`,
          { param: wanted.action },
        );
      }
    }
    await next();
  };
}
