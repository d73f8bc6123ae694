/**
 * Who `GET /config` says is signed in, and which preset role each action
 * they lack needs: the UI names the user ("Signed in as vic · viewer") and
 * says which role a control it hides needs. Only the presets have roles: a
 * custom `can` decides by rules of its own, so none is named then.
 *
 * @module
 */

import type { Action } from "../contract/actions.ts";
import type { SignedInUser } from "../contract/config.ts";
import type { BoardUser } from "../options.ts";
import { allowedActions, type Can, presetCan, type Role, roleOf, ROLES } from "./permissions.ts";
import { userName } from "./user.ts";

/** The user `GET /config` names: null when no login names anyone. */
export function signedInUser(user: BoardUser | null, can: Can | null): SignedInUser | null {
  if (user === null) return null;
  return { name: userName(user), role: can === presetCan ? roleOf(user) : null };
}

/**
 * For each action not in `allowed` that some preset role may do (on this
 * board: a read-only one refuses mutations to every role), the least such
 * role. Empty unless the presets decide.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { presetCan } from "./permissions.ts";
 * import { rolesNeeded } from "./signed_in.ts";
 *
 * const needed = await rolesNeeded(presetCan, ["search"], false);
 * assert.equal(needed["job.retry"], "operator");
 * assert.equal(needed["audit.read"], "admin");
 * ```
 */
export async function rolesNeeded(
  can: Can | null,
  allowed: readonly string[],
  readOnly: boolean,
): Promise<Partial<Record<Action, Role>>> {
  if (can !== presetCan) return {};
  const needed: Partial<Record<Action, Role>> = {};
  for (const role of ROLES) {
    for (const action of await allowedActions(presetCan, { role }, readOnly)) {
      if (!allowed.includes(action)) needed[action] ??= role;
    }
  }
  return needed;
}
