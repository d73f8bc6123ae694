/**
 * The catalogue of actions: what a route records in the audit trail (a
 * mutation) or needs permission for (a read), what `can(user, action,
 * target)` is asked about and what `GET /config` lists as allowed. The names
 * are stored in trails, so a name never changes.
 *
 * @module
 */

/** The actions routes record, one or more routes each. */
export const ROUTE_ACTIONS = [
  "job.retry",
  "job.retry-edited",
  "job.rerun",
  "job.cancel",
  "job.dispatch",
  "task.retry-all",
  "task.clean",
  "dlq.retry-all",
  "dlq.retry",
  "schedule.pause",
  "schedule.resume",
  "schedule.trigger",
  "schedule.update",
  "schedule.remove",
  "workflow.cancel",
  "bulk.start",
  "operation.cancel",
  "sessions.revoke",
  "alerts.update",
] as const;

/** An action a route records. */
export type RouteAction = typeof ROUTE_ACTIONS[number];

/**
 * Reads that need a permission: job data, results and logs beyond their
 * previews (`payload.read`), exports, searches, the job history's summaries
 * (`history.read`), the audit trail and the metrics. They change nothing, so
 * the trail records them only when refused.
 */
export const READ_ACTIONS = [
  "payload.read",
  "export",
  "search",
  "history.read",
  "audit.read",
  "metrics.read",
] as const;

/** An action a read route needs permission for. */
export type ReadAction = typeof READ_ACTIONS[number];

/**
 * The catalogue of actions a user may be allowed: what `can(user, action,
 * target)` is asked about, and what `GET /config` lists as allowed.
 */
export const ACTIONS: readonly Action[] = [...ROUTE_ACTIONS, ...READ_ACTIONS];

/** An action of the catalogue. */
export type Action = RouteAction | ReadAction;
