/**
 * `GET /openapi.json`: the API's OpenAPI 3.1 document, generated from the
 * routes `api` registered (see `openapi.ts`). It is an API
 * route like the others: the session or the auth hook and the same-origin
 * rule guard it.
 *
 * @module
 */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { ResolvedOptions } from "../options.ts";
import { apiRoute, apiRouter } from "./openapi.ts";

const getDocument = apiRoute({
  method: "get",
  path: "/openapi.json",
  tags: ["meta"],
  summary: "This document",
  description: "The API's OpenAPI 3.1 document, generated from the schemas the routes validate " +
    "with.",
  ok: z.record(z.string(), z.unknown()).openapi({ description: "An OpenAPI 3.1 document." }),
});

const SAME_ORIGIN = "A mutation from a page of another origin is refused (403 `CROSS_ORIGIN`) " +
  "unless that origin is the board's `cors` origin, the only one CORS lets read answers too; " +
  "every mutation sends `Content-Type: application/json`. A request for a host the board does " +
  "not answer to (`allowedHosts`) is refused (403 `HOST_NOT_ALLOWED`). Lists that paginate send their size " +
  "in `X-Total-Count`.";

/** What the document says about who may call the API, by the board's `auth` option. */
function security(options: ResolvedOptions) {
  if (options.auth === null) {
    return { description: "No login: the board is open to whoever reaches it." };
  }
  if (typeof options.auth === "function") {
    return {
      description: "The host's auth hook decides on every request: it answers with its own " +
        "response (401, a redirect…) or lets the request through.",
    };
  }
  return {
    description: `Session login: \`POST ${options.basePath}/auth/login\` sets the signed ` +
      `session cookie \`${options.auth.cookieName}\`; without it every route answers 401.`,
    schemes: {
      session: { type: "apiKey" as const, in: "cookie" as const, name: options.auth.cookieName },
    },
  };
}

/**
 * The document route, over every route `api` holds (this one included).
 * Built on the first request, when `api` is complete, and kept: a board's
 * routes and options do not change.
 */
export function documentRoutes(api: OpenAPIHono, options: ResolvedOptions): OpenAPIHono {
  let built: Record<string, unknown> | undefined;
  return apiRouter().openapi(getDocument, (c) => c.json(built ??= build(), 200));

  function build(): Record<string, unknown> {
    const auth = security(options);
    const document = api.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: `${options.title} API`,
        version: "1",
        description: `${auth.description}\n\n${SAME_ORIGIN}`,
      },
      servers: [{ url: options.basePath === "/" ? "/api" : `${options.basePath}/api` }],
      ...auth.schemes && { security: [{ session: [] }] },
    });
    if (auth.schemes) {
      document.components = { ...document.components, securitySchemes: auth.schemes };
    }
    return document as unknown as Record<string, unknown>;
  }
}
