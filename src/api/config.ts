/**
 * `GET /config`: what the UI needs to know about the board.
 *
 * @module
 */

import { Hono } from "hono";
import type { ConfigResponse } from "../contract/config.ts";
import type { ApiDeps } from "./deps.ts";
import { dataShownAsStored } from "./jobs.ts";

/** Routes under `/config`. */
export function configRoutes({ options }: ApiDeps): Hono {
  return new Hono().get("/config", (c) =>
    c.json(
      {
        title: options.title,
        logo: options.logo,
        favicon: options.favicon,
        theme: options.theme,
        readOnly: options.readOnly,
        editableData: dataShownAsStored(options),
        refreshInterval: options.refreshInterval,
        authEnabled: options.auth !== null && typeof options.auth === "object",
        basePath: options.basePath,
      } satisfies ConfigResponse,
    ));
}
