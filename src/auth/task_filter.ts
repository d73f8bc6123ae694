/**
 * The tasks a request's user may do one read on, as a filter the source's
 * reads take (`TaskFilter`): a read across every task leaves out the tasks
 * the user may not read, asking `can` about each task found.
 *
 * @module
 */

import type { Context } from "hono";
import type { ReadAction } from "../contract/actions.ts";
import type { ResolvedOptions } from "../options.ts";
import type { TaskFilter } from "../source/types.ts";
import type { SessionEnv } from "./session.ts";
import { actingUser, type UserEnv } from "./user.ts";

/**
 * The tasks the request's user may do `action` on: under auth, those `can`
 * allows; every task without auth (undefined: no filter).
 */
export function tasksAllowed(
  c: Context<SessionEnv & UserEnv>,
  options: ResolvedOptions,
  action: ReadAction,
): TaskFilter | undefined {
  if (options.auth === null) return undefined;
  const user = actingUser(c);
  return async (task) => await options.can(user, action, task);
}

/**
 * The tasks whose jobs a start of an id may find for the request's user:
 * those it may `search` (a lookup by prefix is a search).
 */
export function searchableTasks(
  c: Context<SessionEnv & UserEnv>,
  options: ResolvedOptions,
): TaskFilter | undefined {
  return tasksAllowed(c, options, "search");
}
