/**
 * The task page's Mechanics card: what holds the task's jobs back, found by
 * a scan the user starts (and may stop) — the concurrency keys in use (the
 * 20 most used, and a total), the throttles (their max is each dispatch's
 * own option, unknown to the board), pending debounces, dedup keys and
 * collect buffers with their sizes.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { Time } from "../../components/time.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount, formatCountOf, formatElapsed, shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { COUNTED_KEYS, type MechanicsFound, useMechanicsScan } from "./mechanics_scan.ts";

/** Rows shown per kind. */
const SHOWN = 20;

function JobLink({ id }: { id: string | null }) {
  return id === null
    ? html`<span class="muted">—</span>`
    : html`<a href=${href("jobs", id)}><code>${shortId(id)}</code></a>`;
}

/** One kind's table (each row: the key, then its cells), with how many more were found than shown. */
function Kind(
  { title, total, head, rows }: {
    title: string;
    total: number;
    head: string[];
    rows: [string, ...ComponentChildren[]][];
  },
) {
  const more = total - Math.min(rows.length, SHOWN);
  return html`
    <section class="mechanics-kind">
      <h3 class="workers-title">${title} <span class="muted">${formatCount(total)}</span></h3>
      ${total === 0 ? html`<p class="muted mechanics-none">none</p>` : html`
        <div class="forecast-scroll">
          <table class="forecast-table">
            <thead>
              <tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr>
            </thead>
            <tbody>${rows.slice(0, SHOWN).map(([key, ...cells], row) =>
              // By place: a user without payload.read sees every key as the same hidden word.
              html`<tr key=${row}><td><code>${key}</code></td>${
                cells.map((cell) => html`<td>${cell}</td>`)
              }</tr>`
            )}</tbody>
          </table>
        </div>
        ${more > 0 ? html`<p class="muted mechanics-none">and ${formatCount(more)} more</p>` : null}
      `}
    </section>
  `;
}

function Found({ found }: { found: MechanicsFound }) {
  const { concurrency, throttle, debounce, dedup, collect } = found;
  const job = (id: string | null) => html`<${JobLink} id=${id} />`;
  const at = (ms: number | null) => html`<${Time} at=${ms} />`;
  return html`
    <${Kind}
      title=${`Concurrency keys in use · ${formatCountOf(concurrency.running, "job")} running`}
      total=${concurrency.keys}
      head=${["Key", "Running"]}
      rows=${concurrency.top.map((e) => [e.key, e.count])}
    />
    <${Kind}
      title="Throttles (max: each dispatch's option)"
      total=${throttle.total}
      head=${["Key", "In window", "Resets in"]}
      rows=${[...throttle.kept].sort((a, b) => b.count - a.count).map((e) => [
        e.key,
        e.count,
        e.resetsInMs === null ? "—" : formatElapsed(e.resetsInMs),
      ])}
    />
    <${Kind}
      title="Pending debounces"
      total=${debounce.total}
      head=${["Key", "Job", "Runs"]}
      rows=${debounce.kept.map((e) => [e.key, job(e.jobId), at(e.runAt)])}
    />
    <${Kind}
      title="Dedup keys"
      total=${dedup.total}
      head=${["Key", "Job", "State"]}
      rows=${dedup.kept.map((e) => [e.key, job(e.jobId), e.state ?? "gone"])}
    />
    <${Kind}
      title="Collect buffers"
      total=${collect.total}
      head=${["Key", "Items", "Flushes"]}
      rows=${collect.kept.map((e) => [e.key, formatCount(e.size), at(e.flushAt)])}
    />
  `;
}

const STATUS = {
  idle: "",
  running: "scanning…",
  stopped: "stopped",
  done: "whole keyspace scanned",
  capped: `ended at ${formatCount(COUNTED_KEYS)} keys, the most one scan counts`,
  failed: "failed",
  unknown: "",
};

/** The mechanics card of one task. */
export function MechanicsCard({ task }: { task: string }) {
  const { api } = useBoard();
  const { scan, start, stop } = useMechanicsScan(api, task);
  const running = scan.status === "running";
  const actions = html`
    <span class="muted mechanics-status">${STATUS[scan.status]}${scan.scanCalls > 0
      ? ` · ~${formatCount(scan.scanCalls * 1000)} keys looked at`
      : ""}</span>
    ${running
      ? html`<button type="button" class="btn" onClick=${stop}>Stop</button>`
      : scan.status === "unknown"
      ? null
      : html`<button type="button" class="btn" onClick=${start}>${
        scan.status === "idle" ? "Scan" : "Scan again"
      }</button>`}
  `;
  // Kinds are shown once a step has read some keys: "none" before that would be a finding.
  const read = scan.scanCalls > 0 || scan.status === "running" || scan.status === "done";
  return html`
    <${Card} title="Mechanics" actions=${actions}>
      ${scan.status === "failed" ? html`<${ErrorBanner} error=${scan.error} />` : null}
      ${scan.status === "idle"
        ? html`<p class="muted mechanics-none">
          Concurrency keys, throttles, debounces, dedup keys and collect buffers are found by a
          scan of the keyspace, a few thousand keys a step: start it to see them.
        </p>`
        : scan.status === "unknown"
        ? html`<p class="muted mechanics-none">${scan.reason}</p>`
        : read
        ? html`
          <div class="mechanics-grid">
            <${Found} found=${scan.found} />
          </div>
        `
        : null}
    <//>
  `;
}
