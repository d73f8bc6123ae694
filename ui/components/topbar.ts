/**
 * The bar above every page: the page title, the read-only badge, what is
 * live (the event stream, Redis, the board itself), the job search and the
 * theme switch.
 *
 * @module
 */
import type { Ref } from "preact";
import { useBoard } from "../lib/board_context.ts";
import type { LiveStatus } from "../lib/connectivity.ts";
import { formatClock } from "../lib/format.ts";
import { html } from "../lib/html.ts";
import { chooseTheme, theme } from "../lib/theme.ts";
import type { Theme } from "../lib/types.ts";
import { FiringLink } from "./firing_count.ts";
import { JobSearch } from "./job_search.ts";

const LIVE_LABEL: Record<LiveStatus, readonly [string, string]> = {
  connecting: ["Connecting", "Opening the live event stream"],
  live: ["Live", "Updates arrive over the live event stream"],
  "store-down": ["Redis unreachable", "The board cannot reach Redis; it retries by itself"],
  polling: ["Polling", "The event stream is down; refreshing on a timer"],
  offline: ["Offline", "The board server does not answer; retrying on a timer"],
};

function LiveIndicator() {
  const { connectivity, config } = useBoard();
  const status = connectivity.status.value;
  const asOf = connectivity.asOf.value;
  const [label, why] = LIVE_LABEL[status];
  const detail = status === "polling" ? `${why} (every ${config.refreshInterval / 1000}s)` : why;
  // While stale, say how old the data on screen is (the part after the dash may wrap away).
  const age = asOf === null ? null : ` — showing data as of ${formatClock(asOf)}`;
  return html`
    <span class=${`live live-${status}`} title=${detail} role="status">
      <span class="live-dot" aria-hidden="true"></span>${label}${age
        ? html`<span class="live-age">${age}</span>`
        : null}
    </span>
  `;
}

const THEMES: { value: Theme; label: string }[] = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "auto", label: "Auto" },
];

function ThemeSwitch() {
  return html`
    <div class="theme-switch" role="group" aria-label="Colour theme">
      ${THEMES.map(({ value, label }) =>
        html`
          <button
            key=${value}
            type="button"
            class="theme-option"
            aria-pressed=${theme.value === value ? "true" : "false"}
            onClick=${() => chooseTheme(value)}
          >${label}</button>
        `
      )}
    </div>
  `;
}

/** The top bar; `searchRef` lets the `/` shortcut focus the search. */
export function Topbar({ title, searchRef }: { title: string; searchRef: Ref<HTMLInputElement> }) {
  const { config } = useBoard();
  return html`
    <header class="topbar">
      <h1 class="page-title">${title}</h1>
      ${config.readOnly ? html`<span class="badge">Read-only</span>` : null}
      <${LiveIndicator} />
      <${FiringLink} />
      <div class="topbar-tools">
        <${JobSearch} inputRef=${searchRef} />
        <${ThemeSwitch} />
      </div>
    </header>
  `;
}
