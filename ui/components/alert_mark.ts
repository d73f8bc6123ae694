/**
 * The mark on a task's row of the overview while alerts fire for it: a small
 * red bell with the count, its tooltip naming the rules. Nothing otherwise.
 *
 * @module
 */
import { useBoard } from "../lib/board_context.ts";
import { formatCount } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** The mark for `task`. */
export function AlertMark({ task }: { task: string }) {
  const firing = useBoard().firing.value;
  const count = firing?.byTask[task] ?? 0;
  if (count === 0) return null;
  const rules = firing?.rulesByTask[task] ?? [];
  const label = rules.length > 0
    ? `Firing: ${rules.join(", ")}`
    : `${formatCount(count)} ${count === 1 ? "alert" : "alerts"} firing`;
  return html`
    <a class="alert-mark" href="./alerts" title=${label}
      aria-label=${label}>${BELL}${formatCount(count)}</a>
  `;
}

const BELL = html`
  <svg viewBox="0 0 24 24" aria-hidden="true">
    <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0" />
  </svg>
`;
