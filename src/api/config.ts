/**
 * `GET /config`: what the UI needs to know about the board, and what the
 * current user may do there.
 *
 * @module
 */

import { allowedActions } from "../auth/permissions.ts";
import type { SessionEnv } from "../auth/session.ts";
import { rolesNeeded, signedInUser } from "../auth/signed_in.ts";
import { actingUser, type UserEnv } from "../auth/user.ts";
import type { ApiDeps } from "./deps.ts";
import { dataShownAsStored } from "../jobs/edited_data.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { ConfigSchema } from "./schema/board.ts";

const getConfig = apiRoute({
  method: "get",
  path: "/config",
  tags: ["board"],
  summary: "What the UI needs to know about the board, and what the current user may do",
  ok: ConfigSchema,
});

/** Routes under `/config`. */
export function configRoutes({ options, history }: ApiDeps) {
  return apiRouter<SessionEnv & UserEnv>().openapi(getConfig, async (c) => {
    const can = options.auth === null ? null : options.can;
    const user = actingUser(c);
    const allowed = await allowedActions(can, user, options.readOnly);
    return c.json({
      title: options.title,
      logo: options.logo,
      favicon: options.favicon,
      theme: options.theme,
      readOnly: options.readOnly,
      editableData: dataShownAsStored(options),
      refreshInterval: options.refreshInterval,
      authEnabled: options.auth !== null && typeof options.auth === "object",
      basePath: options.basePath,
      history: history !== null,
      exportCap: options.exportCap,
      allowed,
      user: signedInUser(user, can),
      roleNeeded: await rolesNeeded(can, allowed, options.readOnly),
    }, 200);
  });
}
