/**
 * The left navigation: brand (logo + title), the links it is given (the
 * page registry's, `ui/pages/registry.ts`), who is signed in ("Signed in
 * as vic · viewer"), and the sign-out button when
 * session login is on (a plain form: it works without JavaScript), with
 * "Sign out everywhere" under it.
 *
 * @module
 */
import type { ComponentType } from "preact";
import type { SignedInUser } from "../../src/contract/config.ts";
import { html } from "../lib/html.ts";
import { Icon, type IconName } from "./icon.ts";
import { SignOutEverywhere } from "./sign_out_everywhere.ts";

const BRAND_MARK = html`
  <svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true">
    <rect width="32" height="32" rx="7" />
    <rect x="7" y="8" width="18" height="4" rx="2" />
    <rect x="7" y="14" width="13" height="4" rx="2" opacity=".8" />
    <rect x="7" y="20" width="8" height="4" rx="2" opacity=".6" />
  </svg>
`;

/** A navigation entry: path below the base, label, icon, and what to show after the label. */
export interface NavItem {
  path: string;
  label: string;
  icon: IconName;
  badge?: ComponentType;
}

/** Sidebar with brand and navigation; `active` is the link of the current page. */
export function Sidebar(
  { title, logo, items, active, authEnabled, user }: {
    title: string;
    logo: string | null;
    items: readonly NavItem[];
    active: NavItem;
    authEnabled: boolean;
    user: SignedInUser | null;
  },
) {
  return html`
    <aside class="sidebar">
      <header class="brand">
        ${logo ? html`<img class="brand-logo" src=${logo} alt="" />` : BRAND_MARK}
        <span class="brand-title">${title}</span>
      </header>
      <nav aria-label="Main">
        <ul class="nav">
          ${items.map((item) =>
            html`
              <li key=${item.path}>
                <a
                  class=${item === active ? "nav-link active" : "nav-link"}
                  href=${`.${item.path}`}
                  aria-current=${item === active ? "page" : undefined}
                >
                  <${Icon} name=${item.icon} />
                  <span>${item.label}</span>
                  ${item.badge ? html`<${item.badge} />` : null}
                </a>
              </li>
            `
          )}
        </ul>
      </nav>
      ${(authEnabled || user) &&
        html`
          <div class="sidebar-account">
            ${user &&
              html`<p class="signed-in">Signed in as <strong>${user.name}</strong>${
                user.role ? ` · ${user.role}` : ""
              }</p>`}
            ${authEnabled &&
              html`
                <form class="sidebar-signout" method="post" action="auth/logout">
                  <button type="submit" class="signout">Sign out</button>
                  <${SignOutEverywhere} />
                </form>
              `}
          </div>
        `}
      <footer class="sidebar-foot">taskora</footer>
    </aside>
  `;
}
