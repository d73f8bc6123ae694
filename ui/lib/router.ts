/**
 * History-API routing below the base path. The current route is a signal;
 * links are plain `<a href>` (relative to `<base href>`) that {@link Router.onClick}
 * turns into `pushState` navigations.
 *
 * @module
 */
import { type Signal, signal } from "@preact/signals";

/** A router bound to one base path. */
export interface Router {
  /** Path below the base, starting with `/` (`/`, `/tasks/email`). */
  readonly path: Signal<string>;
  /** The query string of the current URL (`?state=failed`, or ``). */
  readonly search: Signal<string>;
  /** Navigates to a path below the base, optionally with a query (`/tasks/a?state=failed`). */
  navigate(path: string, options?: { replace?: boolean }): void;
  /** Click handler for a container: intercepts same-origin links (HTML or SVG) under the base. */
  onClick(event: MouseEvent): void;
  /** Stops listening to `popstate`. */
  dispose(): void;
}

/** Creates a router for a base path ending in `/`. */
export function createRouter(basePath: string): Router {
  const strip = (pathname: string): string =>
    pathname.startsWith(basePath) ? `/${pathname.slice(basePath.length)}` : "/";
  const path = signal(strip(location.pathname));
  const search = signal(location.search);
  const sync = () => {
    path.value = strip(location.pathname);
    search.value = location.search;
  };
  addEventListener("popstate", sync);

  const navigate = (to: string, { replace = false } = {}) => {
    const target = basePath + to.replace(/^\//, "");
    if (target !== location.pathname + location.search) {
      if (replace) history.replaceState(null, "", target);
      else history.pushState(null, "", target);
      if (!replace) scrollTo(0, 0);
    }
    sync();
  };

  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // Attributes, not properties: an SVG link's `href` and `target` are objects.
    const link = (event.target as Element | null)?.closest?.("a");
    const target = link?.getAttribute("href");
    if (!link || target == null || link.getAttribute("target")) return;
    if (link.hasAttribute("download")) return;
    const url = new URL(target, document.baseURI);
    if (url.origin !== location.origin || !url.pathname.startsWith(basePath)) return;
    if (url.pathname.startsWith(`${basePath}api/`)) return;
    event.preventDefault();
    navigate(strip(url.pathname) + url.search);
  };

  return { path, search, navigate, onClick, dispose: () => removeEventListener("popstate", sync) };
}

/** A route of the board: the page and the decoded path parameters. */
export type Route =
  | { page: "overview" }
  | { page: "tasks" }
  | { page: "task"; task: string }
  | { page: "job"; id: string }
  | { page: "workflows" }
  | { page: "workflow"; id: string }
  | { page: "schedules" }
  | { page: "dlq" }
  | { page: "migrations" }
  | { page: "not-found" };

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Matches a path below the base (`/tasks/email`) to its route. */
export function matchRoute(path: string): Route {
  const [first = "", second, ...rest] = path.replace(/^\/+|\/+$/g, "").split("/");
  if (rest.length) return { page: "not-found" };
  const param = second === undefined ? null : decode(second);
  if (second !== undefined && !param) return { page: "not-found" };
  switch (first) {
    case "":
      return second === undefined ? { page: "overview" } : { page: "not-found" };
    case "tasks":
      return param ? { page: "task", task: param } : { page: "tasks" };
    case "jobs":
      return param ? { page: "job", id: param } : { page: "not-found" };
    case "workflows":
      return param ? { page: "workflow", id: param } : { page: "workflows" };
    case "schedules":
    case "dlq":
    case "migrations":
      return param ? { page: "not-found" } : { page: first };
    default:
      return { page: "not-found" };
  }
}

/** The href (relative to `<base href>`) of a path below the base: `/jobs/a b` → `jobs/a%20b`. */
export function href(...segments: string[]): string {
  return segments.map(encodeURIComponent).join("/");
}
