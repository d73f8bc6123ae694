/**
 * The application shell: loads `/api/config`, applies the theme, opens the
 * live connection, installs the keyboard shortcuts, and renders the
 * sidebar, the top bar and the page for the current route (greyed, with a
 * note saying how old it is, while Redis or the board does not answer).
 *
 * @module
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ConfirmHost } from "./components/confirm_dialog.ts";
import { ErrorBanner } from "./components/error_banner.ts";
import { Sidebar } from "./components/sidebar.ts";
import { StaleNote, useStaleness } from "./components/stale_note.ts";
import { Toasts } from "./components/toasts.ts";
import { Topbar } from "./components/topbar.ts";
import { createApi } from "./lib/api.ts";
import { BoardContext, type BoardServices } from "./lib/board_context.ts";
import { loadConfig } from "./lib/config.ts";
import { createConnectivity } from "./lib/connectivity.ts";
import { html } from "./lib/html.ts";
import { createLive } from "./lib/live.ts";
import { documentTitle } from "./lib/page_title.ts";
import { createRouter, matchRoute, type Route } from "./lib/router.ts";
import { installShortcuts } from "./lib/shortcuts.ts";
import { initTheme } from "./lib/theme.ts";
import type { BoardConfig } from "./lib/types.ts";
import { DlqPage } from "./pages/dlq/index.ts";
import { JobPage } from "./pages/job/index.ts";
import { MigrationsPage } from "./pages/migrations/index.ts";
import { NotFoundPage } from "./pages/not_found.ts";
import { OverviewPage } from "./pages/overview/index.ts";
import { SchedulesPage } from "./pages/schedules/index.ts";
import { TaskPage } from "./pages/task/index.ts";
import { TasksPage } from "./pages/tasks/index.ts";
import { WorkflowPage } from "./pages/workflow/index.ts";
import { WorkflowsPage } from "./pages/workflows/index.ts";

const TITLES: Record<Route["page"], string> = {
  overview: "Overview",
  tasks: "Tasks",
  task: "Task",
  job: "Job",
  workflows: "Workflows",
  workflow: "Workflow",
  schedules: "Schedules",
  dlq: "Dead-letter queue",
  migrations: "Migrations",
  "not-found": "Not found",
};

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case "overview":
      return html`<${OverviewPage} />`;
    case "tasks":
      return html`<${TasksPage} />`;
    case "task":
      return html`<${TaskPage} key=${route.task} task=${route.task} />`;
    case "job":
      return html`<${JobPage} key=${route.id} id=${route.id} />`;
    case "workflows":
      return html`<${WorkflowsPage} />`;
    case "workflow":
      return html`<${WorkflowPage} key=${route.id} id=${route.id} />`;
    case "schedules":
      return html`<${SchedulesPage} />`;
    case "dlq":
      return html`<${DlqPage} />`;
    case "migrations":
      return html`<${MigrationsPage} />`;
    case "not-found":
      return html`<${NotFoundPage} />`;
  }
}

/** The page's content, greyed while stale. */
function Content({ route }: { route: Route }) {
  const { stale } = useStaleness();
  return html`
    <main class=${stale ? "content is-stale" : "content"} id="content" tabindex="-1">
      <${StaleNote} />
      <${Page} route=${route} />
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
    loadConfig(api, abort.signal).then((cfg) => {
      setConfig(cfg);
      setConfigError(null);
      initTheme(cfg.theme);
    }, (err) => {
      if (!abort.signal.aborted) setConfigError(err);
    });
    return () => abort.abort();
  }, [api]);

  const live = useMemo(
    () => config ? createLive(basePath, connectivity) : null,
    [config !== null, connectivity],
  );
  useEffect(() => () => live?.close(), [live]);

  useEffect(() =>
    installShortcuts({
      navigate: router.navigate,
      focusSearch: () => searchRef.current?.focus(),
    }), [router]);

  const path = router.path.value;
  const route = matchRoute(path);
  const title = TITLES[route.page];
  useEffect(() => {
    // A task, job or workflow page names its tab itself (usePageTitle).
    if (config && !("task" in route || "id" in route)) {
      document.title = documentTitle([title], config.title);
    }
  }, [title, config]);

  if (!config || !live) {
    return html`
      <div class="boot">
        ${configError
          ? html`<${ErrorBanner} error=${configError} />`
          : html`<p class="muted" role="status">Loading…</p>`}
      </div>
    `;
  }
  const services: BoardServices = { api, router, config, live, connectivity };
  return html`
    <${BoardContext.Provider} value=${services}>
      <div class="layout" onClick=${router.onClick}>
        <a class="skip-link" href="#content" onClick=${(e: Event) => {
          e.preventDefault();
          document.getElementById("content")?.focus();
        }}>Skip to content</a>
        <${Sidebar}
          title=${config.title}
          logo=${config.logo}
          path=${path}
          authEnabled=${config.authEnabled}
        />
        <div class="main">
          <${Topbar} title=${title} searchRef=${searchRef} />
          <${Content} route=${route} />
        </div>
      </div>
      <${Toasts} />
      <${ConfirmHost} />
      <//>
  `;
}
