/**
 * The auth hook's guard (`auth` given as a function): the hook's own
 * `Response` answers the request; anything else lets it through, as the user
 * it (or `identify`) names.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import type { AuthHook, ResolvedOptions } from "../options.ts";
import { type UserEnv, userName } from "./user.ts";

/** Runs the auth hook; the user it (or `identify`) names is who asks. */
export function hookGuard(
  hook: AuthHook,
  identify: ResolvedOptions["identify"],
): MiddlewareHandler<UserEnv> {
  return async function authHook(c, next) {
    const answer = await hook(c.req.raw);
    if (answer instanceof Response) {
      c.set("refusedByHook", true);
      return answer;
    }
    const user = identify ? await identify(c.req.raw) : answer;
    if (user) {
      c.set("user", userName(user));
      c.set("identity", user);
    }
    await next();
  };
}
