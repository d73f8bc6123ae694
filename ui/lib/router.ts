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
  /** Navigates to a path below the base. */
  navigate(path: string): void;
  /** Click handler for a container: intercepts same-origin links under the base. */
  onClick(event: MouseEvent): void;
  /** Stops listening to `popstate`. */
  dispose(): void;
}

/** Creates a router for a base path ending in `/`. */
export function createRouter(basePath: string): Router {
  const strip = (pathname: string): string =>
    pathname.startsWith(basePath) ? `/${pathname.slice(basePath.length)}` : "/";
  const path = signal(strip(location.pathname));
  const onPop = () => {
    path.value = strip(location.pathname);
  };
  addEventListener("popstate", onPop);

  const navigate = (to: string) => {
    const target = basePath + to.replace(/^\//, "");
    if (target !== location.pathname) history.pushState(null, "", target);
    path.value = strip(location.pathname);
  };

  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.("a");
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href, document.baseURI);
    if (url.origin !== location.origin || !url.pathname.startsWith(basePath)) return;
    if (url.pathname.startsWith(`${basePath}api/`)) return;
    event.preventDefault();
    navigate(strip(url.pathname));
  };

  return { path, navigate, onClick, dispose: () => removeEventListener("popstate", onPop) };
}
