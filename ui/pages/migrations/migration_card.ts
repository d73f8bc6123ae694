/**
 * One task with pending jobs: its current version and `since`, the verdict
 * on raising `since`, and where its pending jobs sit by version, as a bar
 * chart and as the table of the same numbers.
 *
 * @module
 */
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { BUCKETS, chartVersions, type Migrations, pendingAt, pendingTotal } from "./types.ts";
import { isFullySafe, Verdict } from "./verdict.ts";
import { VersionChart } from "./version_chart.ts";

/** The state colour class of each bucket (dots in the table head double as the chart legend). */
const BUCKET_STATE = { queue: "waiting", delayed: "delayed", retrying: "retrying" } as const;

/** What the store says about `since`: taskora keeps it in the workers' code. */
export function SinceValue({ since }: { since: number | null }) {
  return since === null
    ? html`
      <span class="muted"
        title="taskora declares since in the task's code; the keyspace does not record it">
            not recorded in the store
          </span>
    `
    : html`v${since}`;
}

function Count({ n }: { n: number }) {
  return html`<td class=${n ? "num" : "num zero"}>${formatCount(n)}</td>`;
}

function VersionTable({ migrations: m, versions }: { migrations: Migrations; versions: number[] }) {
  return html`
    <table class="table mig-table">
      <caption class="visually-hidden">Pending jobs by version</caption>
      <thead>
        <tr>
          <th scope="col">Version</th>
          ${BUCKETS.map((b) =>
            html`<th key=${b.key} scope="col" class="num">
              <span class=${`dot state-${BUCKET_STATE[b.key]}`}></span>${b.key}
            </th>`
          )}
          <th scope="col" class="num">Total</th>
        </tr>
      </thead>
      <tbody>
        ${versions.map((v) =>
          html`
            <tr key=${v}>
              <th scope="row">v${v} ${v === m.version
                ? html`<span class="mig-current muted">current</span>`
                : null}</th>
              ${BUCKETS.map((b) => html`<${Count} key=${b.key} n=${m[b.key].byVersion[v] ?? 0} />`)}
              <${Count} n=${pendingAt(m, v)} />
            </tr>
          `
        )}
      </tbody>
    </table>
  `;
}

/** The card of one task that has pending jobs. */
export function MigrationCard({ task, migrations: m }: { task: string; migrations: Migrations }) {
  const versions = chartVersions(m);
  const oldest = Math.min(...versions.filter((v) => pendingAt(m, v) > 0));
  const safe = isFullySafe(m);
  const series = BUCKETS.map((b) => ({
    label: b.label,
    color: `--st-${BUCKET_STATE[b.key]}`,
    counts: versions.map((v) => m[b.key].byVersion[v] ?? 0),
  }));
  return html`
    <section class="card mig-card" aria-labelledby=${`mig-${task}`}>
      <header class="card-head">
        <h2 class="card-title" id=${`mig-${task}`}>
          <a class="task-link" href=${href("tasks", task)}>${task}</a>
        </h2>
        ${safe
          ? html`<span class="health health-ok mig-status">Safe up to v${m.version}</span>`
          : html`<span class="health health-warn mig-status">Blocked above v${m.canBumpSince}</span>`}
      </header>
      <div class="card-body mig-body">
        <dl class="facts mig-facts">
          <div>
            <dt>Current version</dt>
            <dd>v${m.version}</dd>
          </div>
          <div>
            <dt>since</dt>
            <dd>
              <${SinceValue} since=${m.since} />
            </dd>
          </div>
          <div>
            <dt>Pending jobs</dt>
            <dd>${formatCount(pendingTotal(m))}</dd>
          </div>
          <div>
            <dt>Oldest pending</dt>
            <dd>v${oldest}</dd>
          </div>
        </dl>
        <${Verdict} migrations=${m} />
        <div class="mig-spread">
          <${VersionChart}
            versions=${versions}
            current=${m.version}
            series=${series}
            label=${`Pending jobs of ${task} by version`}
          />
          <${VersionTable} migrations=${m} versions=${versions} />
        </div>
      </div>
    </section>
  `;
}
