/**
 * The task's week: what its last 7 days looked like (completed, failed,
 * failure rate, p95 run time, re-runs), each against the 7 days before when
 * the history holds them (`GET /history/week`). Reloaded when the task's
 * finished counts move, at most once a minute: a week changes slowly.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { Fact } from "../../components/fact.ts";
import { formatRate } from "../../components/history_charts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatClock, formatCount, formatElapsed } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { taskCounts } from "../../lib/live.ts";
import { mayReadHistory } from "../../lib/permissions.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import type { HistoryWindow } from "../../../src/contract/history_charts.ts";

/** One figure of the week, read from a window, and written in words. */
interface Figure {
  label: string;
  of: (window: HistoryWindow) => number | null;
  format: (value: number) => string;
}

const FIGURES: readonly Figure[] = [
  { label: "Completed", of: (w) => w.completed, format: formatCount },
  { label: "Failed", of: (w) => w.failed, format: formatCount },
  { label: "Failure rate", of: (w) => w.failureRate, format: formatRate },
  { label: "Run time p95", of: (w) => w.run?.p95 ?? null, format: formatElapsed },
  { label: "Re-runs", of: (w) => w.reruns, format: formatCount },
];

/** A figure against the week before: `was 120`, or nothing to compare. */
function Before({ figure, previous }: { figure: Figure; previous: HistoryWindow | null }) {
  if (previous === null) return null;
  const before = figure.of(previous);
  return html`<span class="muted task-week-before">was ${
    before === null ? "—" : figure.format(before)
  }</span>`;
}

/** The week card of one task. */
export function TaskWeek({ task }: { task: string }) {
  const { config } = useBoard();
  if (!mayReadHistory(config)) return null;
  return html`<${ShownTaskWeek} task=${task} />`;
}

function ShownTaskWeek({ task }: { task: string }) {
  const { api } = useBoard();
  const week = useLiveResource(
    (signal) => api.get("/history/week", { query: { task }, signal }),
    [task],
    {
      relevant: () => false,
      follows: (frame) => {
        const counts = taskCounts(frame, task);
        return counts && [counts.completed, counts.failed];
      },
      minGap: 60_000,
    },
  );
  const data = week.data;
  return html`
    <${Card}
      title="Last 7 days"
      actions=${data
        ? html`<span class="muted">${
          data.previous
            ? "against the 7 days before"
            : "the history holds nothing of the 7 days before"
        }, read at ${formatClock(data.asOf)}</span>`
        : null}
    >
      ${data
        ? html`
          <dl class="facts task-week">
            ${FIGURES.map((figure) => {
              const value = figure.of(data.current);
              return html`
                <${Fact} key=${figure.label} label=${figure.label}>
                  ${value === null ? "—" : figure.format(value)}
                  <${Before} figure=${figure} previous=${data.previous} />
                <//>
              `;
            })}
          </dl>
        `
        : html`<p class="empty">${week.error ? week.error.message : "Loading…"}</p>`}
    <//>
  `;
}
