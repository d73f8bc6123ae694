/**
 * The names the audit trail gives actions. They are stored in trails, so a
 * name never changes; each route that changes something declares the one it
 * records (`audit` in its {@link ./openapi.ts apiRoute}), and `deno check`
 * refuses a name not listed here.
 *
 * @module
 */

import {
  READ_ACTIONS,
  type ReadAction,
  ROUTE_ACTIONS,
  type RouteAction,
} from "../contract/actions.ts";

/** What a mutation request is, for the trail. */
export interface AuditedAction {
  /** The action's name, e.g. `job.retry`. */
  action: string;
  /** What it acts on: the path parameter, or `*` when the route names none. */
  target: string;
  /** The task, when the path names one. */
  task: string | null;
  /**
   * Where the request names the task it acts on when its path does not:
   * `?task=` (`query`) or the body's `selector.task` (`selector`).
   */
  taskIn?: TaskIn;
  /** The job the path names (`{jobId}`), whose task is asked about too. */
  job?: string;
  /** The field of a success's answer naming the target instead (see {@link AuditDeclaration}). */
  named?: string;
}

/** Where a request names its task outside its path: `?task=`, or the body's `selector.task`. */
export type TaskIn = "query" | "selector";

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

/**
 * Recorded by the replica that takes a bulk operation over from another
 * (whose lease ran out, or which gave it back when it closed).
 */
export const OPERATION_TAKEOVER = "operation.takeover";

/** A failed sign-in (recorded by the login route, not by a route under `/api`). */
export const LOGIN_ACTION = "auth.login";
/** The action of a request refused before the API that is no mutation (a read, a login). */
export const ACCESS_REFUSED = "access.refused";

/** Every action name, for the Activity page's filter. */
export const AUDIT_ACTIONS: readonly string[] = [
  ...ROUTE_ACTIONS,
  // Recorded when refused (403 FORBIDDEN).
  ...READ_ACTIONS,
  ...BULK_FINISH_ACTIONS,
  OPERATION_TAKEOVER,
  LOGIN_ACTION,
  ACCESS_REFUSED,
];

/**
 * What a read route needs permission for, declared in its `apiRoute({
 * permission })`: the action, and the path parameter naming what it reads
 * (absent: the task, or `*`).
 */
export interface PermissionDeclaration<Path extends string = string> {
  /** The action's name, from {@link READ_ACTIONS}. */
  action: ReadAction;
  /** The path parameter naming what is read (`"{jobId}"`). */
  target?: Parameter & Segment<Path>;
  /** The path parameter that names the task read (`"{task}"`). */
  task?: Parameter & Segment<Path>;
  /** Where the request names the task read when its path does not. */
  taskIn?: TaskIn;
}

/** A path parameter's segment: `{jobId}`. */
type Parameter = `{${string}}`;

/** The segments of a route's path: `/jobs/{jobId}/retry` has `jobs`, `{jobId}` and `retry`. */
type Segment<Path extends string> = string extends Path ? string
  : Path extends `/${infer Head}/${infer Rest}` ? Head | Segment<`/${Rest}`>
  : Path extends `/${infer Last}` ? Last
  : never;

/**
 * What a route that changes something records in the audit trail, declared
 * in its `apiRoute({ audit })`: the action, and the segments of its path
 * that name what it acts on.
 */
export interface AuditDeclaration<Path extends string = string> {
  /** The action's name, from {@link ROUTE_ACTIONS}. */
  action: RouteAction;
  /**
   * What it acts on: a path parameter (`"{jobId}"`, its value) or a fixed
   * segment of the path (`"mine"`). Absent: the task, or `*` without one.
   */
  target?: Segment<Path>;
  /** The path parameter that names the task acted on (`"{task}"`). */
  task?: Parameter & Segment<Path>;
  /** Where the request names the task acted on when its path does not. */
  taskIn?: TaskIn;
  /**
   * A field of the answer that names what the route made (a rule's `name`):
   * a success records it as the target, since the path cannot name what
   * does not exist yet.
   */
  named?: string;
}
