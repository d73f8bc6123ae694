/**
 * Sign out everywhere: `POST /sessions/mine/revoke` ends every session of
 * the signed-in user, `POST /sessions/all/revoke` every user's (action
 * `sessions.revoke` on `all`: under the presets, an admin's). Sessions signed in until now are
 * refused from then on, by this board at once and by its replicas within
 * five seconds (`src/auth/revocations.ts`).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { BoardError } from "../errors.ts";
import { bodyOf, jsonBody } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";

const tags = ["sessions"];

const RevokedSchema = z.object({
  revoked: z.enum(["mine", "all"]).openapi({ description: "Whose sessions ended." }),
  at: z.number().openapi({ description: "Sessions signed in until this time (ms) are refused." }),
}).openapi("SessionsRevoked");

/** Whose sessions a revocation ends: the signed-in user's, or every user's. */
type Scope = "mine" | "all";

/** The route that revokes the sessions of `scope`. */
function revokeRoute(scope: Scope, summary: string) {
  return apiRoute({
    method: "post",
    path: `/sessions/${scope}/revoke`,
    audit: { action: "sessions.revoke", target: scope },
    tags,
    summary,
    request: { body: jsonBody(bodyOf({})) },
    ok: RevokedSchema,
    errors: ["NOT_FOUND"],
  });
}

const revokeMine = revokeRoute(
  "mine",
  "Sign out everywhere: end every session of the signed-in user, this one included",
);
const revokeAll = revokeRoute("all", "End every user's sessions (a user whose role is admin)");

/** The board's sessions, under session login (else there is nothing to revoke). */
function sessionsOf(deps: Pick<ApiDeps, "sessions">): NonNullable<ApiDeps["sessions"]> {
  if (deps.sessions) return deps.sessions;
  throw new BoardError("NOT_FOUND", "This board has no session login: there are no sessions");
}

/** Routes under `/sessions`. */
export function sessionRoutes(deps: Pick<ApiDeps, "sessions">) {
  return apiRouter<SessionEnv & UserEnv>()
    .openapi(revokeMine, async (c) => {
      const { revoker, clear } = sessionsOf(deps);
      const at = await revoker.revoke(c.get("user")!);
      clear(c);
      return c.json({ revoked: "mine" as const, at }, 200);
    })
    .openapi(revokeAll, async (c) => {
      const { revoker, clear } = sessionsOf(deps);
      const at = await revoker.revoke(null);
      clear(c);
      return c.json({ revoked: "all" as const, at }, 200);
    });
}
