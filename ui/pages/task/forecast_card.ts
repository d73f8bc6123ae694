/**
 * The task page's drain forecast: per window (the last 10 and 60
 * minutes), how many jobs arrived and finished a minute and where the
 * backlog heads ("drains in about 12 min", "growing by 40/min"). Arrivals
 * are derived, as the API states; a window with no backlog sample says why;
 * jobs due in over an hour are named apart, not counted.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { Time } from "../../components/time.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { roughDuration } from "../../../src/contract/health.ts";
import { html } from "../../lib/html.ts";
import { taskCounts } from "../../lib/live.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import type { DrainOutlook, ForecastResponse } from "../../../src/contract/forecast.ts";

/** A rate per minute, to one decimal below ten. */
function perMinute(rate: number): string {
  return `${rate < 10 ? rate.toFixed(1) : formatCount(Math.round(rate))}/min`;
}

/** Where the backlog heads, in words. */
function outlookText(outlook: DrainOutlook): string {
  switch (outlook.kind) {
    case "empty":
      return "nothing left to run";
    case "steady":
      return "steady: as many finish as arrive";
    case "drains":
      return `drains in about ${roughDuration(Math.max(60_000, outlook.inMs))}`;
    case "growing":
      return `growing by ${perMinute(outlook.perMinute)}`;
  }
}

function Window({ window }: { window: ForecastResponse["windows"][number] }) {
  const label = html`<th scope="row">Last ${window.minutes} min</th>`;
  if ("missing" in window) {
    return html`<tr>${label}<td colspan="3" class="muted">${window.missing}</td></tr>`;
  }
  return html`
    <tr>
      ${label}
      <td class="num" title=${`${formatCount(window.arrived)} arrived (derived)`}>
        ${perMinute(window.arrivalRate)}
      </td>
      <td class="num" title=${`${formatCount(window.finished)} finished`}>
        ${perMinute(window.completionRate)}
      </td>
      <td class=${`forecast-outlook is-${window.outlook.kind}`}>${outlookText(window.outlook)}</td>
    </tr>
  `;
}

/** The drain forecast card of one task. */
export function ForecastCard({ task }: { task: string }) {
  const { api } = useBoard();
  const forecast = useLiveResource(
    (signal) => api.get("/tasks/{task}/forecast", { params: { task }, signal }),
    [task],
    { relevant: () => false, follows: (frame) => taskCounts(frame, task) },
  );
  const data = forecast.data;
  if (!data) {
    return html`
      <${Card} title="Drain forecast">
        <${ErrorBanner} error=${forecast.error} />
        ${forecast.error
          ? null
          : html`<p class="empty">${forecast.loading ? "Loading…" : "No data."}</p>`}
        <//>
    `;
  }
  return html`
    <${Card}
      title="Drain forecast"
      actions=${html`
        <span
          class="muted">${formatCount(data.backlog)} yet to finish${data.dueLater > 0
            ? ` (and ${formatCount(data.dueLater)} due in over an hour)`
            : ""} · read <${Time} at=${data.readAt} /></span>
      `}
    >
      <${ErrorBanner} error=${forecast.error} />
      <div class="forecast-scroll">
        <table class="forecast-table">
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col" class="num">Arriving</th>
              <th scope="col" class="num">Finishing</th>
              <th scope="col">Backlog</th>
            </tr>
          </thead>
          <tbody>${data.windows.map((w) =>
            html`<${Window} key=${w.minutes} window=${w} />`
          )}</tbody>
        </table>
      </div>
      <p class="muted forecast-note">
        taskora counts no dispatches: arrivals are the jobs finished plus the backlog's growth
        since the board's sample of the window's start. Delayed and retrying jobs count once
        they are due within the hour.
      </p>
      <//>
  `;
}
