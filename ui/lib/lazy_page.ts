/**
 * A page whose code loads on first visit: the entry script carries the
 * shell (sidebar, top bar, live connection) and each page is its own chunk,
 * so the first paint does not wait for the code of pages not shown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lazyPage } from "./lazy_page.ts";
 *
 * const TaskPage = lazyPage(() => import("../pages/task/index.ts").then((m) => m.TaskPage));
 * assert.equal(typeof TaskPage, "function"); // a component; the page loads when first shown
 * ```
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ErrorBanner } from "../components/error_banner.ts";
import { html } from "./html.ts";

/** A page's component: a function of its parameters. */
type Page<Props> = (props: Props) => ComponentChildren;

/**
 * Wraps `load` as a page component. The chunk is fetched once, when the page
 * is first shown; until then the page says it is loading, and if the fetch
 * fails (the board was redeployed, the network is down) it says so and
 * offers a reload rather than showing nothing. A failed load is tried again
 * the next time the page is shown.
 */
export function lazyPage<Props extends object>(load: () => Promise<Page<Props>>): Page<Props> {
  let loaded: Page<Props> | null = null;
  let pending: Promise<Page<Props>> | null = null;
  const fetchOnce = () =>
    pending ??= load().then((page) => loaded = page, (error) => {
      pending = null;
      throw error;
    });

  return function LazyPage(props: Props) {
    const [, setReady] = useState(false);
    const [error, setError] = useState<Error | null>(null);
    useEffect(() => {
      if (loaded) return;
      let shown = true;
      fetchOnce().then(() => shown && setReady(true), (cause) => {
        if (shown) setError(new Error(`This page's code did not load: ${cause}`));
      });
      return () => {
        shown = false;
      };
    }, []);
    if (loaded) return html`<${loaded} ...${props} />`;
    if (error) {
      return html`
        <${ErrorBanner} error=${error} />
        <p><button type="button" class="btn" onClick=${() => location.reload()}>Reload</button></p>
      `;
    }
    return html`<p class="muted" role="status">Loading…</p>`;
  };
}
