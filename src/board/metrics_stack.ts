/**
 * The layers of `GET {basePath}/metrics`, the Prometheus scrape. A scraper
 * with the metrics token was answered before these (`metricsToken` on the
 * root); whoever gets here signed in, or the auth hook let them in, and needs
 * `metrics.read`.
 *
 * @module
 */

import { type Context, Hono } from "hono";
import { hookGuard } from "../auth/hook_guard.ts";
import { permissionGuard } from "../auth/permission_guard.ts";
import type { BoardMetrics } from "../metrics/route.ts";
import type { ResolvedOptions } from "../options.ts";
import type { Stack } from "./stack.ts";

/** Answers a scrape with the exposition text of `metrics`. */
export function serveMetrics(metrics: BoardMetrics): (c: Context) => Promise<Response> {
  return async function scrape(c) {
    const { text, contentType } = await metrics.scrape();
    return c.body(text, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  };
}

/** The scrape's layers, relative to `/metrics`; the root's handler answers its errors. */
export function metricsStack(options: ResolvedOptions, metrics: BoardMetrics): Stack {
  return {
    layers: [
      typeof options.auth === "function" &&
      { name: "auth hook", use: hookGuard(options.auth, options.identify) },
      options.auth !== null && {
        name: "permission guard",
        use: permissionGuard({
          can: options.can,
          mountPath: "",
          routes: () => ({ action: "metrics.read", target: "*", task: null }),
        }),
      },
      { name: "scrape", at: "/", mount: new Hono().get("/", serveMetrics(metrics)) },
    ],
  };
}
