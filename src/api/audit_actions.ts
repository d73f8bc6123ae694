/**
 * The mutations the audit trail names: each route that changes something,
 * its action name and what it acts on. One table, read by the audit
 * middleware, so a new mutation route is one line here.
 *
 * @module
 */

/** What a mutation request is, for the trail. */
export interface AuditedAction {
  /** The action's name, e.g. `job.retry`. */
  action: string;
  /** What it acts on: the path parameter, or `*` when the route names none. */
  target: string;
  /** The task, when the path names one. */
  task: string | null;
}

/** method, path under `/api`, action; `:target` names the target, `:task` a task target. */
const ROUTES: readonly [method: string, path: string, action: string][] = [
  ["POST", "/jobs/:target/retry", "job.retry"],
  ["POST", "/jobs/:target/retry-edited", "job.retry-edited"],
  ["POST", "/jobs/:target/rerun", "job.rerun"],
  ["POST", "/jobs/:target/cancel", "job.cancel"],
  ["POST", "/tasks/:task/retry-all", "task.retry-all"],
  ["POST", "/tasks/:task/clean", "task.clean"],
  ["POST", "/dlq/retry-all", "dlq.retry-all"],
  ["POST", "/dlq/:target/retry", "dlq.retry"],
  ["POST", "/schedules/:target/pause", "schedule.pause"],
  ["POST", "/schedules/:target/resume", "schedule.resume"],
  ["POST", "/schedules/:target/trigger", "schedule.trigger"],
  ["PUT", "/schedules/:target", "schedule.update"],
  ["DELETE", "/schedules/:target", "schedule.remove"],
  ["POST", "/workflows/:target/cancel", "workflow.cancel"],
  ["POST", "/bulk", "bulk.start"],
  ["POST", "/operations/:target/cancel", "operation.cancel"],
  // `mine` or `all`.
  ["POST", "/sessions/:target/revoke", "sessions.revoke"],
];

/**
 * Actions recorded when a bulk operation ends (not by a route): what it did
 * in the end, and what it skipped.
 */
export const BULK_FINISH_ACTIONS: readonly string[] = [
  "bulk.retry",
  "bulk.cancel",
  "bulk.promote",
  "bulk.delete",
];

/** A failed sign-in (recorded by the login route, not by a route under `/api`). */
export const LOGIN_ACTION = "auth.login";
/** The action of a request refused before the API that is no mutation (a read, a login). */
export const ACCESS_REFUSED = "access.refused";

/** Every action name, for the Activity page's filter. */
export const AUDIT_ACTIONS: readonly string[] = [
  ...ROUTES.map(([, , action]) => action),
  ...BULK_FINISH_ACTIONS,
  LOGIN_ACTION,
  ACCESS_REFUSED,
];

const PATTERNS = ROUTES.map(([method, path, action]) => ({
  method,
  action,
  pattern: new URLPattern({ pathname: path }),
}));

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The action a request under `/api` is, or null for one that changes nothing. */
export function auditedAction(method: string, path: string): AuditedAction | null {
  for (const route of PATTERNS) {
    if (route.method !== method) continue;
    const groups = route.pattern.exec({ pathname: path })?.pathname.groups;
    if (!groups) continue;
    const task = groups.task === undefined ? null : decoded(groups.task);
    return {
      action: route.action,
      target: groups.target === undefined ? task ?? "*" : decoded(groups.target),
      task,
    };
  }
  return null;
}
