/**
 * How many alerts fire, as a red pill: beside the sidebar's Alerts link (the
 * number) and in the top bar (a link to the Alerts page, "3 firing · 1
 * silenced"). Alerts a silence mutes are not counted as firing: the top bar
 * says how many there are apart, in grey when nothing else fires. Both show
 * nothing when none fires or alerts are not configured; the tooltip says as
 * of which evaluation.
 *
 * @module
 */
import type { Firing } from "../lib/firing.ts";
import { useBoard } from "../lib/board_context.ts";
import { formatClock, formatCount, formatCountOf } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** What fires, when anything does (muted alerts apart), and the sentence saying so. */
function useFiringNow(): { firing: Firing; label: string } | null {
  const firing = useBoard().firing.value;
  if (!firing || (firing.firing === 0 && firing.silenced === 0)) return null;
  const asOf = firing.asOf === null ? "" : ` as of ${formatClock(firing.asOf)}`;
  const silenced = firing.silenced === 0 ? "" : `, ${formatCount(firing.silenced)} silenced`;
  return { firing, label: `${formatCountOf(firing.firing, "alert")} firing${silenced}${asOf}` };
}

/** The sidebar's pill: the number firing; none when only silenced ones fire. */
export function FiringCount() {
  const now = useFiringNow();
  if (!now || now.firing.firing === 0) return null;
  return html`<span class="firing-count" title=${now.label} aria-label=${now.label}>${
    formatCount(now.firing.firing)
  }</span>`;
}

/** The top bar's pill: a link to the Alerts page, saying how many fire and how many are silenced. */
export function FiringLink() {
  const now = useFiringNow();
  if (!now) return null;
  const { firing, silenced } = now.firing;
  const text = [
    firing > 0 ? `${formatCount(firing)} firing` : null,
    silenced > 0 ? `${formatCount(silenced)} silenced` : null,
  ].filter(Boolean).join(" · ");
  return html`
    <a class=${firing > 0 ? "firing-count" : "firing-count is-silenced"} href="./alerts"
      title=${now.label} aria-label=${now.label}>${text}</a>
  `;
}
