/**
 * Who takes a scan slot (`store/scan_slot_rules.ts`): the user asking, and whether it
 * may change anything (then it can always get a slot, whatever readers
 * hold).
 *
 * @module
 */

import type { Context } from "hono";
import { allowedActions } from "../auth/permissions.ts";
import type { SessionEnv } from "../auth/session.ts";
import { actingUser, type UserEnv, userName } from "../auth/user.ts";
import type { ResolvedOptions } from "../options.ts";
import { type Action, ROUTE_ACTIONS } from "../contract/actions.ts";
import type { ScanHolder } from "./slots.ts";

/** Mutations that change jobs: signing out everywhere does not make a user an operator. */
const MUTATIONS: ReadonlySet<Action> = new Set(
  ROUTE_ACTIONS.filter((action) => action !== "sessions.revoke"),
);

/** The holder of a scan the request runs: unnamed without a login (only the board's cap holds). */
export async function scanHolder(
  c: Context<SessionEnv & UserEnv>,
  options: Pick<ResolvedOptions, "auth" | "can" | "readOnly">,
): Promise<ScanHolder> {
  const user = actingUser(c);
  if (options.auth === null || user === null) return { user: null, mutator: true };
  const allowed = await allowedActions(options.can, user, options.readOnly);
  return { user: userName(user), mutator: allowed.some((action) => MUTATIONS.has(action)) };
}
