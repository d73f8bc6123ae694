/**
 * Which action a request under `/api` is, read from the routes' own
 * declarations (`audit` in each `apiRoute`): the audit middleware and the
 * refusal recorder ask it, so a route records what it declares and nothing
 * is listed twice.
 *
 * @module
 */

import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AuditDeclaration, AuditedAction, PermissionDeclaration } from "./actions.ts";

/** The action of `method path` (path relative to `/api`), or null for a request that changes nothing. */
export type AuditedRoutes = (method: string, path: string) => AuditedAction | null;

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The value a declared segment names: a path parameter's (`{jobId}`), or the segment itself. */
function segmentValue(segment: string, groups: Record<string, string | undefined>): string {
  const parameter = /^{(\w+)}$/.exec(segment)?.[1];
  return parameter === undefined ? segment : decoded(groups[parameter] ?? "");
}

/** The path parameter that names a job. */
const JOB_PARAMETER = "{jobId}";

/** The declaration a route carries under `key`, if any. */
type DeclarationOf = (
  route: Record<string, unknown>,
) => AuditDeclaration | PermissionDeclaration | undefined;

/** A route's declaration and the paths it answers. */
interface DeclaredRoute {
  declared: AuditDeclaration | PermissionDeclaration;
  pattern: URLPattern;
}

/**
 * What the routes of `api` declare (`declaredBy` reads it), matched as Hono
 * matches them. Grouped by method once: every request asks (a GET of a board
 * whose audited routes are all mutations is answered at once, where looking
 * through every route cost each GET an object per route).
 */
function declaredRoutes(api: OpenAPIHono, declaredBy: DeclarationOf): AuditedRoutes {
  const byMethod = new Map<string, DeclaredRoute[]>();
  for (const definition of api.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const declared = declaredBy(definition.route as unknown as Record<string, unknown>);
    if (declared === undefined) continue;
    const pathname = definition.route.path.replaceAll(/{(\w+)}/g, ":$1");
    const method = definition.route.method.toUpperCase();
    const routes = byMethod.get(method) ?? [];
    routes.push({ declared, pattern: new URLPattern({ pathname }) });
    byMethod.set(method, routes);
  }
  return (method, path) => {
    for (const { declared, pattern } of byMethod.get(method) ?? []) {
      const groups = pattern.exec({ pathname: path })?.pathname.groups;
      if (!groups) continue;
      const task = declared.task === undefined ? null : segmentValue(declared.task, groups);
      const target = declared.target === undefined
        ? task ?? "*"
        : segmentValue(declared.target, groups);
      return {
        action: declared.action,
        target,
        task,
        ...declared.taskIn && { taskIn: declared.taskIn },
        ...declared.target === JOB_PARAMETER && { job: target },
        ...("named" in declared && { named: declared.named }),
      };
    }
    return null;
  };
}

/**
 * The audited routes of `api` (the routes of `createApi`), matched as Hono
 * matches them.
 *
 * @example
 * ```ts ignore
 * const actionOf = auditedRoutes(createApi(deps));
 * actionOf("POST", "/jobs/j-1/retry"); // { action: "job.retry", target: "j-1", task: null }
 * ```
 */
export function auditedRoutes(api: OpenAPIHono): AuditedRoutes {
  return declaredRoutes(api, (route) => route["x-audit"] as AuditDeclaration | undefined);
}

/**
 * The action each route of `api` needs permission for: a mutation's audited
 * action, or what a read declares (`permission` in its `apiRoute`).
 *
 * @example
 * ```ts ignore
 * const actionOf = guardedRoutes(createApi(deps));
 * actionOf("GET", "/jobs/j-1/logs"); // { action: "payload.read", target: "j-1", task: null }
 * ```
 */
export function guardedRoutes(api: OpenAPIHono): AuditedRoutes {
  return declaredRoutes(
    api,
    (route) =>
      (route["x-audit"] ?? route["x-permission"]) as
        | AuditDeclaration
        | PermissionDeclaration
        | undefined,
  );
}
