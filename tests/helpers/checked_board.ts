/**
 * `createBoard` for the HTTP tests: the same board, whose `fetch` checks
 * every answer of the API against the route's OpenAPI definition before the
 * test sees it, so every request a test makes also tests the document.
 *
 * - The status must be one the route documents (under an auth hook, also
 *   `default`: the hook's own answer, which is the host's to shape).
 * - A JSON answer must validate against that status's schema (the zod
 *   schema itself, strict objects: no field more or less); an error's
 *   `code` must be one the route lists for that status.
 * - Any other answer must have one of the media types the route documents
 *   (streams and files are not read: an SSE stream never ends).
 *
 * A test opts in by importing `createBoard` from here instead of `mod.ts`;
 * a wrong answer fails it with the route, the status and zod's complaint.
 *
 * @module
 */

import type { RouteConfig } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { TrieRouter } from "hono/router/trie-router";
import { type Board, createBoard as createUncheckedBoard } from "../../mod.ts";
import type { ApiDeps } from "../../src/api/deps.ts";
import { createApi } from "../../src/api/mod.ts";
import { type BoardOptions, resolveOptions } from "../../src/options.ts";
import { createBoardOn as createUncheckedBoardOn } from "../../src/board.ts";

/** Every route the API defines, by method and path (relative to `/api`). */
export function apiRouteConfigs(): RouteConfig[] {
  // The definitions are module constants: building the router reads nothing of its deps.
  const api = createApi({ options: resolveOptions({}) } as ApiDeps);
  return api.openAPIRegistry.definitions.flatMap((definition) =>
    definition.type === "route" ? [definition.route] : []
  );
}

const ROUTES = new TrieRouter<RouteConfig>();
for (const route of apiRouteConfigs()) {
  ROUTES.add(route.method.toUpperCase(), route.path.replaceAll(/{(\w+)}/g, ":$1"), route);
}

/** The route that answered `method path` (path relative to `/api`), if any. */
export function routeOf(method: string, path: string): RouteConfig | undefined {
  const [matches] = ROUTES.match(method === "HEAD" ? "GET" : method, path);
  return matches[0]?.[0];
}

/** Why `response` does not match what `route` documents, or null when it does. */
export async function mismatch(
  route: RouteConfig,
  method: string,
  response: Response,
  { hook = false }: { hook?: boolean } = {},
): Promise<string | null> {
  const documented = route.responses[response.status];
  const type = (response.headers.get("content-type") ?? "").split(";")[0].trim();
  // apiRoute writes every response inline: a $ref would be a route written another way.
  const media = documented && !("$ref" in documented) ? documented.content?.[type] : undefined;
  // Under an auth hook, `default`: the hook's own answer, the host's to shape.
  if (!media && hook && route.responses.default) return null;
  if (!documented || "$ref" in documented) return `status ${response.status} is not documented`;
  if (!media) return `Content-Type ${type || "none"} is not documented for ${response.status}`;
  if (type !== "application/json" || method === "HEAD") return null;
  if (!("schema" in media) || !(media.schema instanceof z.ZodType)) return "no zod schema";
  const body = await response.clone().json();
  const result = media.schema.safeParse(body);
  if (!result.success) {
    return `the body does not match its schema: ${z.prettifyError(result.error)}`;
  }
  const codes: string[] = documented.description?.match(/\b[A-Z_]{4,}\b/g) ?? [];
  if (response.status >= 400 && body.code !== undefined && !codes.includes(body.code)) {
    return `code ${body.code} is not documented for ${response.status} (${documented.description})`;
  }
  return null;
}

/** {@link createUncheckedBoard}, whose `fetch` throws on an API answer its route does not document. */
export function createBoard(...args: Parameters<typeof createUncheckedBoard>): Board {
  return checked(createUncheckedBoard(...args), args[1]);
}

/** {@link createUncheckedBoardOn} (the board on fake timers), checked as {@link createBoard} is. */
export function createBoardOn(...args: Parameters<typeof createUncheckedBoardOn>): Board {
  return checked(createUncheckedBoardOn(...args), args[2]);
}

function checked(board: Board, given: BoardOptions | undefined): Board {
  const options = resolveOptions(given ?? {});
  const base = options.basePath;
  const hook = typeof options.auth === "function";
  const apiPath = `${base === "/" ? "" : base}/api`;
  return {
    ...board,
    async fetch(request, info) {
      const response = await board.fetch(request, info);
      const { pathname } = new URL(request.url);
      if (!pathname.startsWith(`${apiPath}/`)) return response;
      const route = routeOf(request.method, pathname.slice(apiPath.length));
      if (!route) return response; // no route: the 404/405 fallback, checked by its own tests
      const wrong = await mismatch(route, request.method, response, { hook });
      if (wrong) {
        throw new Error(
          `${request.method} ${pathname} answered against its OpenAPI route: ${wrong}`,
        );
      }
      return response;
    },
  };
}
