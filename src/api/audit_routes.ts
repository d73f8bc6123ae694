/**
 * Which action a request under `/api` is, read from the routes' own
 * declarations (`audit` in each `apiRoute`): the audit middleware and the
 * refusal recorder ask it, so a route records what it declares and nothing
 * is listed twice.
 *
 * @module
 */

import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AuditDeclaration, AuditedAction } from "./audit_actions.ts";

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
  const routes = api.openAPIRegistry.definitions.flatMap((definition) => {
    if (definition.type !== "route") return [];
    const audit = definition.route["x-audit"] as AuditDeclaration | undefined;
    if (audit === undefined) return [];
    const pathname = definition.route.path.replaceAll(/{(\w+)}/g, ":$1");
    return [{
      method: definition.route.method.toUpperCase(),
      audit,
      pattern: new URLPattern({ pathname }),
    }];
  });
  return (method, path) => {
    for (const { audit, pattern, ...route } of routes) {
      if (route.method !== method) continue;
      const groups = pattern.exec({ pathname: path })?.pathname.groups;
      if (!groups) continue;
      const task = audit.task === undefined ? null : segmentValue(audit.task, groups);
      return {
        action: audit.action,
        target: audit.target === undefined ? task ?? "*" : segmentValue(audit.target, groups),
        task,
      };
    }
    return null;
  };
}
