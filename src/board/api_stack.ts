/**
 * The API's layers, `{basePath}/api`: what every route passes through, in
 * order. Who asks is known before what they may do is asked; the read-only
 * guard wins over the permission guard; a mutation is on the trail before
 * anything else may refuse it.
 *
 * @module
 */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { jsonMutations } from "../http/json_mutations.ts";
import { migrationGuard } from "../migration/lock_guard.ts";
import { auditMutations } from "../audit/record.ts";
import { auditedRoutes, guardedRoutes } from "../audit/route_actions.ts";
import { hookGuard } from "../auth/hook_guard.ts";
import { permissionGuard } from "../auth/permission_guard.ts";
import { presetCan } from "../auth/permissions.ts";
import { readOnlyGuard } from "../auth/read_only.ts";
import { jobTaskOf } from "../source/job_task.ts";
import { apiBodyLimit } from "./body_limit.ts";
import { countingErrors } from "./error_handler.ts";
import type { BoardServices } from "./services.ts";
import type { Stack } from "./stack.ts";

/** Where the API is mounted: `{basePath}/api`. */
export function apiPathOf(basePath: string): string {
  return basePath === "/" ? "/api" : `${basePath}/api`;
}

/** The API's layers around `routes` (what `createApi` built); the root's handler answers its errors. */
export function apiStack(services: BoardServices, routes: OpenAPIHono): Stack {
  const { options, metrics, source } = services;
  const mountPath = apiPathOf(options.basePath);
  return {
    mountedErrors: countingErrors(metrics),
    layers: [
      metrics && { name: "metrics timing", use: metrics.timing },
      { name: "body limit", use: apiBodyLimit() },
      typeof options.auth === "function" &&
      { name: "auth hook", use: hookGuard(options.auth, options.identify) },
      options.readOnly &&
      { name: "read-only", use: readOnlyGuard(`${mountPath}/sessions/`) },
      options.auth !== null && {
        name: "permission guard",
        use: permissionGuard({
          can: options.can,
          mountPath,
          routes: guardedRoutes(routes),
          // The presets decide by role alone: a job's task would cost a read for nothing.
          jobTask: options.can === presetCan ? undefined : jobTaskOf(source),
        }),
      },
      // Every audited route is a mutation (tests/unit/board_stacks_test.ts): a read passes these four
      // at once.
      {
        name: "audit mutations",
        use: auditMutations({
          trail: services.audit,
          present: services.present,
          mountPath,
          trustProxy: options.trustProxy,
          routes: auditedRoutes(routes),
        }),
        mutationsOnly: true,
      },
      { name: "json mutations", use: jsonMutations(), mutationsOnly: true },
      { name: "migration guard", use: migrationGuard(source), mutationsOnly: true },
      { name: "own changes", use: services.ownChanges.middleware(), mutationsOnly: true },
      { name: "routes", at: "/", mount: routes },
      { name: "fallback", fallback: { mountPath, preflight: !!options.cors, json: true } },
    ],
  };
}
