/**
 * Who may do what: the `can` option, or the presets `viewer`, `operator`
 * and `admin` read from the user's `role`.
 *
 * @module
 */

import { type Action, ACTIONS, ROUTE_ACTIONS, type RouteAction } from "../contract/actions.ts";
import type { BoardUser } from "../options.ts";

/**
 * Decides whether `user` may do `action` on `target` (the task, the job id,
 * the schedule or workflow name, `mine`/`all` for sessions, `*` for none).
 * `user` is null when no login names anyone (an auth hook, or `identify`,
 * that returned no user): a `can` that allows such a request more than a
 * viewer may says so itself.
 */
export type Can = (
  user: BoardUser | null,
  action: Action,
  target: string,
) => boolean | Promise<boolean>;

/**
 * Whether `can` allows `action` on every one of `targets`, asked in turn
 * until one is refused: a job id and the job's task, so that a `can` that
 * decides per task is asked about the task whichever way a route names it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canAll } from "./permissions.ts";
 * const notBilling = (_user: unknown, _action: string, target: string) => target !== "billing";
 * assert.equal(await canAll(notBilling, null, "job.retry", ["j-1", "billing"]), false);
 * assert.equal(await canAll(notBilling, null, "job.retry", ["j-2", "render"]), true);
 * ```
 */
export async function canAll(
  can: Can,
  user: BoardUser | null,
  action: Action,
  targets: readonly string[],
): Promise<boolean> {
  for (const target of targets) {
    if (!await can(user, action, target)) return false;
  }
  return true;
}

/** The preset roles, least first. */
export const ROLES = ["viewer", "operator", "admin"] as const;

/** A preset role. */
export type Role = typeof ROLES[number];

/**
 * What a viewer may do beyond seeing jobs, states, timings and errors: the
 * history's summaries are those same fields of jobs taskora removed.
 */
const VIEWER: ReadonlySet<Action> = new Set<Action>(["search", "history.read", "metrics.read"]);

/** What only an admin may do: read the audit trail. (Ending every user's sessions is admin's too.) */
const ADMIN_ONLY: ReadonlySet<Action> = new Set<Action>(["audit.read"]);

/** The preset of `user`: its `role` when that names one, else the least, `viewer`. */
export function roleOf(user: BoardUser): Role {
  const role = user.role;
  return ROLES.includes(role as Role) ? role as Role : "viewer";
}

/**
 * The presets, when the `can` option is absent:
 * - `viewer`: sees jobs, states, timings and errors, searches by id, reads
 *   the job history's summaries and the metrics, and signs out its own
 *   sessions everywhere;
 * - `operator`: a viewer who also reads payloads (data, results, logs),
 *   exports, and does every action on jobs, tasks, dead letters, schedules,
 *   workflows and bulk operations;
 * - `admin`: everything, the audit trail and ending every user's sessions
 *   included.
 *
 * A user whose `role` names none of them is a viewer, and so is no user at
 * all (an auth hook or `identify` that names nobody): denied by default, as
 * OWASP ASVS 4.1.3 and 4.1.5 ask; a host whose hook alone decides passes a
 * `can` that allows what it means to.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { presetCan } from "./permissions.ts";
 * assert.equal(presetCan({ name: "vic", role: "viewer" }, "job.retry", "j-1"), false);
 * assert.equal(presetCan({ name: "oz", role: "operator" }, "job.retry", "j-1"), true);
 * assert.equal(presetCan(null, "audit.read", "*"), false);
 * ```
 */
export function presetCan(user: BoardUser | null, action: Action, target: string): boolean {
  const role = user === null ? "viewer" : roleOf(user);
  if (role === "admin") return true;
  if (action === "sessions.revoke") return target === "mine";
  if (role === "viewer") return VIEWER.has(action);
  return !ADMIN_ONLY.has(action);
}

/**
 * The actions `user` may do, for `GET /config`: each asked with target `*`
 * (`mine` for `sessions.revoke`, the UI's own sign-out everywhere), in the
 * catalogue's order. On a read-only board the mutations are left out
 * (signing out everywhere changes no job: it stays). Without auth, `user`
 * is absent and `can` is not asked: every action.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allowedActions, presetCan } from "./permissions.ts";
 * const allowed = await allowedActions(presetCan, { role: "viewer" }, false);
 * assert.ok(allowed.includes("search") && !allowed.includes("job.retry"));
 * ```
 */
export async function allowedActions(
  can: Can | null,
  user: BoardUser | null,
  readOnly: boolean,
): Promise<Action[]> {
  const open = ACTIONS.filter((action) =>
    !readOnly || action === "sessions.revoke" || !ROUTE_ACTIONS.includes(action as RouteAction)
  );
  if (can === null) return open;
  const answers = await Promise.all(
    open.map((action) => can(user, action, action === "sessions.revoke" ? "mine" : "*")),
  );
  return open.filter((_, index) => answers[index] === true);
}
