/**
 * History-API routing below the base path. The current path is a signal;
 * links are plain `<a href>` (relative to `<base href>`) that {@link Router.onClick}
 * turns into `pushState` navigations. Which page a path shows is the page
 * registry's business (`ui/pages/registry.ts`); {@link matchPath} is the
 * pattern matching it uses.
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
  const path = signal("");
  const search = signal("");
  const sync = () => {
    path.value = strip(location.pathname);
    search.value = location.search;
  };
  sync();
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

/** A segment decoded, or `""` when it is not valid percent-encoding. */
function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

/** The segments of a path, without slashes at its ends: `//tasks/x/` → `["tasks", "x"]`, `/` → `[""]`. */
export function segmentsOf(path: string): string[] {
  return path.replace(/^\/+|\/+$/g, "").split("/");
}

/**
 * Matches a path below the base against a pattern of literal and `:name`
 * segments (`/tasks/:task`): the decoded parameters (`{ task: "a b" }`), or
 * `null` when the path has other segments, or a parameter that is empty or
 * not valid percent-encoding.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const parts = segmentsOf(pattern);
  const segments = segmentsOf(path);
  const params: Record<string, string> = {};
  const matches = parts.length === segments.length && parts.every((part, i) => {
    if (!part.startsWith(":")) return part === segments[i];
    const value = decode(segments[i]);
    params[part.slice(1)] = value;
    return value !== "";
  });
  return matches ? params : null;
}

/** The href (relative to `<base href>`) of a path below the base: `/jobs/a b` → `jobs/a%20b`. */
export function href(...segments: string[]): string {
  return segments.map(encodeURIComponent).join("/");
}
