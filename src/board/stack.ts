/**
 * An app as data: its error handler and its layers, named, in the order they
 * run. `composeApp` turns one into a Hono app; a test reads `layerNames` to pin
 * the order (which guard runs before which), so no comment has to keep it.
 *
 * Only the outermost app has an error handler: Hono's `route` wraps every
 * handler of a mounted app that has one of its own in a composition of its
 * own, run at each request (a layer of the API met three of them), where the
 * outer app's handler answers the same errors at no cost.
 *
 * @module
 */

import { type ErrorHandler, Hono, type MiddlewareHandler } from "hono";
import { KeptMatches } from "../http/kept_matches.ts";
import { routeFallback, type RouteFallbackOptions } from "../route_fallback.ts";

/** Any Hono app: a route app of its own env and schema mounts as any other. */
// deno-lint-ignore no-explicit-any -- Hono's own `route` takes any env, schema and base path
type AnyHono = Hono<any, any, any>;

/** The methods that change nothing: a layer for mutations only lets them pass. */
const READS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** Middleware, or a handler that answers, on each path of `on` (every path without it). */
interface UseLayer {
  name: string;
  // deno-lint-ignore no-explicit-any -- each middleware declares the env it reads and sets
  use: MiddlewareHandler<any>;
  on?: readonly string[];
  /**
   * It acts on mutations only: a GET, HEAD or OPTIONS passes it untouched
   * (its own check says so too). Consecutive such layers on the same paths
   * run as one step, which a read passes at once, not one step each.
   */
  mutationsOnly?: true;
}

/** One step of an app, named so that a test can read where it stands. */
export type Layer =
  | UseLayer
  /** An app's routes under `at`. */
  | { name: string; mount: AnyHono; at: string }
  /** The last step: 405 with `Allow`, or 404, for a request no route answered. */
  | { name: string; fallback: RouteFallbackOptions };

/**
 * An app's error handler and its layers; `false` or `null` stands for one its
 * options leave out. An app mounted in another has no error handler: the
 * outer app's answers its errors.
 */
export interface Stack {
  onError?: ErrorHandler;
  /**
   * How the app this one is mounted in answers errors, for a mounted app's
   * layers for mutations only: run as one step, each error one of them
   * throws is answered there, as Hono answers it after each layer, so that
   * the layers before it see the answer (the trail records the refusal).
   * Without it (and without `onError`), they run as a step each.
   */
  mountedErrors?: ErrorHandler;
  layers: readonly (Layer | false | null)[];
}

/** The layers `stack` has, in order. */
export function layersOf(stack: Stack): Layer[] {
  return stack.layers.filter((layer): layer is Layer => layer !== false && layer !== null);
}

/**
 * The names of the layers `stack` has, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { layerNames } from "./stack.ts";
 *
 * const readOnly = false;
 * const names = layerNames({
 *   onError: (_error, c) => c.text("error", 500),
 *   layers: [
 *     readOnly && { name: "read-only", use: (_c, next) => next() },
 *     { name: "fallback", fallback: { mountPath: "/" } },
 *   ],
 * });
 * assert.deepEqual(names, ["fallback"]);
 * ```
 */
export function layerNames(stack: Stack): string[] {
  return layersOf(stack).map((layer) => layer.name);
}

/**
 * A Hono app whose routes are matched once per method and path
 * (`KeptMatches`): the app a request meets first matches it for every app
 * mounted in it.
 */
function servingApp(): Hono {
  return new Hono({ router: new KeptMatches() });
}

/**
 * Builds the Hono app of `stack`: its error handler, then each layer in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { composeApp } from "./stack.ts";
 *
 * const app = composeApp({
 *   onError: (_error, c) => c.text("error", 500),
 *   layers: [
 *     { name: "marked", use: async (c, next) => { await next(); c.header("X-Seen", "1"); } },
 *     { name: "routes", at: "/", mount: new Hono().get("/jobs", (c) => c.text("jobs")) },
 *     { name: "fallback", fallback: { mountPath: "/" } },
 *   ],
 * });
 * assert.equal((await app.request("/jobs")).headers.get("X-Seen"), "1");
 * assert.equal((await app.request("/jobs", { method: "POST" })).status, 405);
 * ```
 */
export function composeApp(stack: Stack): Hono {
  const app = servingApp();
  if (stack.onError) app.onError(stack.onError);
  const errors = stack.onError ?? stack.mountedErrors;
  const layers = layersOf(stack);
  for (const step of errors ? stepsOf(layers, errors) : layers) {
    if ("use" in step) { for (const path of step.on ?? ["*"]) app.use(path, step.use); }
    else if ("mount" in step) app.route(step.at, step.mount);
    else app.all("*", routeFallback(app, step.fallback));
  }
  return app;
}

/** Whether `a` and `b` run on the same paths. */
function samePaths(a: UseLayer, b: UseLayer): boolean {
  return (a.on ?? ["*"]).join("\0") === (b.on ?? ["*"]).join("\0");
}

/**
 * The steps Hono runs for `layers`: each layer as it is, but consecutive
 * layers for mutations only, on the same paths, as one step that a read
 * passes at once (each layer was a step of its own, which every GET ran
 * through only to be let pass).
 */
function stepsOf(layers: readonly Layer[], errors: ErrorHandler): Layer[] {
  const steps: Layer[] = [];
  let run: UseLayer[] = [];
  const endRun = () => {
    if (run.length > 1) steps.push(mutationsStep(run, errors));
    else steps.push(...run);
    run = [];
  };
  for (const layer of layers) {
    const joins = "use" in layer && layer.mutationsOnly === true;
    if (!joins || (run.length > 0 && !samePaths(run[0], layer))) endRun();
    if (joins) run.push(layer);
    else steps.push(layer);
  }
  endRun();
  return steps;
}

/**
 * Layers for mutations only, in order, as one step: a read passes it at
 * once. A mutation runs each as Hono's compose runs a layer: what one
 * answers is the answer, what one throws is answered by `errors` there.
 */
function mutationsStep(run: readonly UseLayer[], errors: ErrorHandler): UseLayer {
  const uses = run.map(({ use }) => use);
  return {
    name: run.map(({ name }) => name).join(", "),
    on: run[0].on,
    use: function mutationsOnly(c, next) {
      if (READS.has(c.req.method)) return next();
      const dispatch = async (i: number): Promise<void> => {
        if (i === uses.length) return await next();
        try {
          const answer = await uses[i](c, () => dispatch(i + 1));
          if (answer instanceof Response && !c.finalized) c.res = answer;
        } catch (error) {
          if (!(error instanceof Error)) throw error;
          c.error = error;
          c.res = await errors(error, c);
        }
      };
      return dispatch(0);
    },
  };
}

/**
 * The app of `stack` (what a host mounts, relative to its path) and the same
 * routes served under `basePath`, both answering errors with the stack's
 * handler. Mounted before the handler is set: a mounted app with no handler
 * of its own has its handlers copied as they are, not each wrapped in a
 * composition that would run at every request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { serveStack } from "./stack.ts";
 *
 * const down = new Hono().get("/jobs", () => {
 *   throw new Error("down");
 * });
 * const { app, served } = serveStack({
 *   onError: (error, c) => c.text(error.message, 503),
 *   layers: [{ name: "routes", at: "/", mount: down }],
 * }, "/board");
 * assert.equal((await served.request("/board/jobs")).status, 503);
 * assert.equal((await app.request("/jobs")).status, 503);
 * ```
 */
export function serveStack(
  stack: Stack & { onError: ErrorHandler },
  basePath: string,
): { app: Hono; served: Hono } {
  const app = composeApp({ layers: stack.layers });
  const served = basePath === "/" ? app : servingApp().route(basePath, app);
  app.onError(stack.onError);
  served.onError(stack.onError);
  return { app, served };
}
