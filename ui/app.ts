/**
 * The application shell: loads `/api/config` (again and again while Redis or
 * the board does not answer, showing the shell meanwhile), applies the theme, opens the
 * live connection, installs the keyboard shortcuts, and renders the
 * sidebar, the top bar and the page for the current route (greyed, with a
 * note saying how old it is, while Redis or the board does not answer).
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ConfirmHost } from "./components/confirm_dialog.ts";
import { ErrorBanner } from "./components/error_banner.ts";
import { MigrationBanner } from "./components/migration_banner.ts";
import { RoleNote } from "./components/role_note.ts";
import { Sidebar } from "./components/sidebar.ts";
import { StaleNote, useStaleness } from "./components/stale_note.ts";
import { Toasts } from "./components/toasts.ts";
import { Topbar } from "./components/topbar.ts";
import { createApi } from "./lib/api.ts";
import { BoardContext, type BoardServices } from "./lib/board_context.ts";
import { DEFAULT_CONFIG, isPassing, loadConfig } from "./lib/config.ts";
import { createConnectivity } from "./lib/connectivity.ts";
import { createFiringWatch } from "./lib/firing.ts";
import { html } from "./lib/html.ts";
import { createLive, REOPEN_AFTER_MS } from "./lib/live.ts";
import { documentTitle } from "./lib/page_title.ts";
import { createRouter } from "./lib/router.ts";
import { installShortcuts } from "./lib/shortcuts.ts";
import { ShortcutsHelp, shortcutsOpen } from "./components/shortcuts_help.ts";
import { initTheme } from "./lib/theme.ts";
import type { BoardConfig } from "./lib/types.ts";
import { matchRoute, navEntryFor, navFor, NOT_FOUND, PAGES } from "./pages/registry.ts";

/** The page's content, greyed while stale; `controls`: the actions its controls do. */
function Content(
  { controls, children }: { controls: readonly string[]; children: ComponentChildren },
) {
  const { stale } = useStaleness();
  return html`
    <main class=${stale ? "content is-stale" : "content"} id="content" tabindex="-1">
      <${StaleNote} />
      <${MigrationBanner} />
      <${RoleNote} actions=${controls} />
      ${children}
    </main>
  `;
}

/** The whole board UI for one base path (ending in `/`). */
export function App({ basePath }: { basePath: string }) {
  const connectivity = useMemo(() => createConnectivity(), [basePath]);
  const api = useMemo(() => createApi(basePath, connectivity.requestEnded), [connectivity]);
  const router = useMemo(() => createRouter(basePath), [basePath]);
  const [config, setConfig] = useState<BoardConfig | null>(null);
  const [configError, setConfigError] = useState<Error | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  useEffect(() => router.dispose, [router]);

  useEffect(() => {
    const abort = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      loadConfig(api, abort.signal).then((cfg) => {
        setConfig(cfg);
        setConfigError(null);
        initTheme(cfg.theme);
      }, (err) => {
        if (abort.signal.aborted) return;
        setConfigError(err);
        if (isPassing(err)) retry = setTimeout(load, REOPEN_AFTER_MS);
      });
    load();
    return () => {
      abort.abort();
      clearTimeout(retry);
    };
  }, [api]);

  // Until the configuration loads, an outage shows the shell with the least a user may do.
  const shown = config ?? (configError && isPassing(configError) ? DEFAULT_CONFIG : null);
  const live = useMemo(
    () => shown ? createLive(basePath, connectivity) : null,
    [shown !== null, connectivity],
  );
  useEffect(() => () => live?.close(), [live]);
  const refreshInterval = shown?.refreshInterval;
  const firing = useMemo(
    () =>
      live && refreshInterval
        ? createFiringWatch({ api, live, connectivity, refreshInterval })
        : null,
    [live, refreshInterval],
  );
  useEffect(() => () => firing?.close(), [firing]);

  const nav = useMemo(() => shown ? navFor(shown) : [], [shown]);
  useEffect(() =>
    installShortcuts({
      pages: nav,
      navigate: router.navigate,
      focusSearch: () => searchRef.current?.focus(),
      showHelp: () => shortcutsOpen.value = true,
    }), [router, nav]);

  const path = router.path.value;
  const { page, ...params } = matchRoute(path);
  const { title, component, controls = [] } = page === "not-found" ? NOT_FOUND : PAGES[page];
  useEffect(() => {
    // A page with parameters (a task, a job) names its tab itself (usePageTitle).
    if (config && Object.keys(params).length === 0) {
      document.title = documentTitle([title], config.title);
    }
  }, [title, config]);

  if (!shown || !live || !firing) {
    return html`
      <div class="boot">
        ${configError
          ? html`<${ErrorBanner} error=${configError} />`
          : html`<p class="muted" role="status">Loading…</p>`}
      </div>
    `;
  }
  const services: BoardServices = {
    api,
    router,
    config: shown,
    live,
    connectivity,
    firing: firing.state,
  };
  // The page is keyed by its path: another task or job gets a fresh page, not the last one re-aimed.
  return html`
    <${BoardContext.Provider} value=${services}>
      <div class="layout" onClick=${router.onClick}>
        <a class="skip-link" href="#content" onClick=${(e: Event) => {
          e.preventDefault();
          document.getElementById("content")?.focus();
        }}>Skip to content</a>
        <${Sidebar}
          title=${shown.title}
          logo=${shown.logo}
          items=${nav}
          active=${navEntryFor(path)}
          authEnabled=${shown.authEnabled}
          user=${shown.user}
        />
        <div class="main">
          <${Topbar} title=${title} searchRef=${searchRef} />
          <${Content} controls=${controls}>${html`<${component} key=${path} ...${params} />`}<//>
        </div>
      </div>
      <${Toasts} />
      <${ConfirmHost} />
      <${ShortcutsHelp} pages=${nav} />
      <//>
  `;
}
