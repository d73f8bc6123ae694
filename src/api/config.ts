/**
 * `GET /config`: what the UI needs to know about the board.
 *
 * @module
 */

import type { ApiDeps } from "./deps.ts";
import { dataShownAsStored } from "./jobs.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { ConfigSchema } from "./schema/board.ts";

const getConfig = apiRoute({
  method: "get",
  path: "/config",
  tags: ["board"],
  summary: "What the UI needs to know about the board",
  ok: ConfigSchema,
});

/** Routes under `/config`. */
export function configRoutes({ options }: ApiDeps) {
  return apiRouter().openapi(getConfig, (c) =>
    c.json({
      title: options.title,
      logo: options.logo,
      favicon: options.favicon,
      theme: options.theme,
      readOnly: options.readOnly,
      editableData: dataShownAsStored(options),
      refreshInterval: options.refreshInterval,
      authEnabled: options.auth !== null && typeof options.auth === "object",
      basePath: options.basePath,
    }, 200));
}
