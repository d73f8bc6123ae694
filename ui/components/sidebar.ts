/**
 * The left navigation: brand (logo + title), one link per page, and the
 * sign-out button when session login is on (a plain form: it works without
 * JavaScript).
 *
 * @module
 */
import { html } from "../lib/html.ts";
import { Icon, type IconName } from "./icon.ts";

const BRAND_MARK = html`
  <svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true">
    <rect width="32" height="32" rx="7" />
    <rect x="7" y="8" width="18" height="4" rx="2" />
    <rect x="7" y="14" width="13" height="4" rx="2" opacity=".8" />
    <rect x="7" y="20" width="8" height="4" rx="2" opacity=".6" />
  </svg>
`;

/** A navigation entry: path below the base, label, icon. */
export interface NavItem {
  path: string;
  label: string;
  icon: IconName;
}

/** The pages of the board, in navigation order. */
export const NAV: readonly NavItem[] = [
  { path: "/", label: "Overview", icon: "overview" },
  { path: "/tasks", label: "Tasks", icon: "tasks" },
  { path: "/workflows", label: "Workflows", icon: "workflows" },
  { path: "/schedules", label: "Schedules", icon: "schedules" },
  { path: "/dlq", label: "DLQ", icon: "dlq" },
  { path: "/migrations", label: "Migrations", icon: "migrations" },
];

/** The nav item a path belongs to: a job under Tasks, Overview for `/` and unknown paths. */
export function activeItem(path: string): NavItem {
  const section = path.startsWith("/jobs/") ? "/tasks" : path;
  return NAV.find((item) =>
    item.path !== "/" && (section === item.path || section.startsWith(`${item.path}/`))
  ) ?? NAV[0];
}

/** Sidebar with brand and navigation; `path` marks the current page. */
export function Sidebar(
  { title, logo, path, authEnabled }: {
    title: string;
    logo: string | null;
    path: string;
    authEnabled: boolean;
  },
) {
  const active = activeItem(path);
  return html`
    <aside class="sidebar">
      <header class="brand">
        ${logo ? html`<img class="brand-logo" src=${logo} alt="" />` : BRAND_MARK}
        <span class="brand-title">${title}</span>
      </header>
      <nav aria-label="Main">
        <ul class="nav">
          ${NAV.map((item) =>
            html`
              <li key=${item.path}>
                <a
                  class=${item === active ? "nav-link active" : "nav-link"}
                  href=${item.path === "/" ? "./" : item.path.slice(1)}
                  aria-current=${item === active ? "page" : undefined}
                >
                  <${Icon} name=${item.icon} />
                  <span>${item.label}</span>
                </a>
              </li>
            `
          )}
        </ul>
      </nav>
      ${authEnabled &&
        html`
          <form class="sidebar-account" method="post" action="auth/logout">
            <button type="submit" class="signout">Sign out</button>
          </form>
        `}
      <footer class="sidebar-foot">taskora</footer>
    </aside>
  `;
}
