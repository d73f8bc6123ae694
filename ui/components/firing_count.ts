/**
 * How many alerts fire, as a red pill: beside the sidebar's Alerts link (the
 * number) and in the top bar (a link to the Alerts page, "3 firing"). Both
 * show nothing when none fires or alerts are not configured; the tooltip
 * says as of which evaluation.
 *
 * @module
 */
import type { Firing } from "../lib/firing.ts";
import { useBoard } from "../lib/board_context.ts";
import { formatClock, formatCount, formatCountOf } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** What fires, when anything does, and the sentence saying so. */
function useFiringNow(): { firing: Firing; label: string } | null {
  const firing = useBoard().firing.value;
  if (!firing || firing.firing === 0) return null;
  const asOf = firing.asOf === null ? "" : ` as of ${formatClock(firing.asOf)}`;
  return { firing, label: `${formatCountOf(firing.firing, "alert")} firing${asOf}` };
}

/** The sidebar's pill: the number. */
export function FiringCount() {
  const now = useFiringNow();
  if (!now) return null;
  return html`<span class="firing-count" title=${now.label} aria-label=${now.label}>${
    formatCount(now.firing.firing)
  }</span>`;
}

/** The top bar's pill: a link to the Alerts page. */
export function FiringLink() {
  const now = useFiringNow();
  if (!now) return null;
  return html`
    <a class="firing-count" href="./alerts" title=${now.label}
      aria-label=${now.label}>${formatCount(now.firing.firing)} firing</a>
  `;
}
