/**
 * One line above a page whose controls the user's role hides: which role
 * they need ("Retrying, cleaning and the like need the operator role; you
 * are a viewer."), so a viewer does not hunt for a button that is not
 * there. Nothing when no preset role decides (a custom `can`), or when
 * nothing is hidden.
 *
 * @module
 */
import { useBoard } from "../lib/board_context.ts";
import { html } from "../lib/html.ts";
import type { BoardConfig } from "../lib/types.ts";

/**
 * The roles the hidden ones of `actions` need, least first; empty when none
 * is hidden or no preset role decides.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rolesFor } from "./role_note.ts";
 *
 * const config = { roleNeeded: { "job.retry": "operator", "audit.read": "admin" } };
 * assert.deepEqual(rolesFor(config, ["job.retry", "search"]), ["operator"]);
 * assert.deepEqual(rolesFor(config, ["search"]), []);
 * ```
 */
export function rolesFor(
  config: Pick<BoardConfig, "roleNeeded">,
  actions: readonly string[],
): string[] {
  const roles = new Set(actions.flatMap((action) => config.roleNeeded[action] ?? []));
  return ["viewer", "operator", "admin"].filter((role) => roles.has(role));
}

/** The line for a page with controls doing `actions`. */
export function RoleNote({ actions }: { actions: readonly string[] }) {
  const { config } = useBoard();
  const roles = rolesFor(config, actions);
  if (roles.length === 0 || !config.user?.role) return null;
  return html`
    <p class="role-note muted" role="note">
      Some controls of this page need the ${roles.join(" or ")} role; you are signed in as${" "}
      ${/^[aeiou]/.test(config.user.role) ? "an" : "a"} ${config.user.role}.
    </p>
  `;
}
