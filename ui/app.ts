/**
 * The application shell: loads `/api/config`, applies the theme, and renders
 * the sidebar, the top bar and the page for the current route.
 *
 * @module
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { ErrorBanner } from "./components/error_banner.ts";
import { activeItem, Sidebar } from "./components/sidebar.ts";
import { createApi } from "./lib/api.ts";
import { DEFAULT_CONFIG, loadConfig } from "./lib/config.ts";
import { html } from "./lib/html.ts";
import { createRouter } from "./lib/router.ts";
import { applyTheme } from "./lib/theme.ts";
import type { BoardConfig } from "./lib/types.ts";
import { ComingSoon } from "./pages/coming_soon.ts";
import { OverviewPage } from "./pages/overview/index.ts";

/** The whole board UI for one base path (ending in `/`). */
export function App({ basePath }: { basePath: string }) {
  const api = useMemo(() => createApi(basePath), [basePath]);
  const router = useMemo(() => createRouter(basePath), [basePath]);
  const [config, setConfig] = useState<BoardConfig | null>(null);
  const [configError, setConfigError] = useState<Error | null>(null);

  useEffect(() => router.dispose, [router]);

  useEffect(() => {
    const abort = new AbortController();
    loadConfig(api, abort.signal).then((cfg) => {
      setConfig(cfg);
      setConfigError(null);
      applyTheme(cfg.theme);
      document.title = cfg.title;
    }, (err) => {
      if (!abort.signal.aborted) setConfigError(err);
    });
    return () => abort.abort();
  }, [api]);

  const path = router.path.value;
  const item = activeItem(path);
  const cfg = config ?? DEFAULT_CONFIG;

  return html`
    <div class="layout" onClick=${router.onClick}>
      <${Sidebar}
        title=${cfg.title}
        logo=${cfg.logo}
        path=${path}
        authEnabled=${cfg.authEnabled}
      />
      <div class="main">
        <header class="topbar">
          <h1 class="page-title">${item.label}</h1>
          ${cfg.readOnly ? html`<span class="badge">Read-only</span>` : null}
        </header>
        <main class="content">
          <${ErrorBanner} error=${configError} />
          ${config === null
            ? null
            : item.path === "/"
            ? html`<${OverviewPage} api=${api} refreshInterval=${config.refreshInterval} />`
            : html`<${ComingSoon} label=${item.label} />`}
        </main>
      </div>
    </div>
  `;
}
