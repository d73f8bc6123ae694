/**
 * The task page's history charts, with a version selector: every version
 * of the task, or one. The versions offered are the task's newest
 * {@link VERSIONS_OFFERED} (its version: the App's, else the newest seen on
 * any job, down to 1), since a version no job carries any more may still be
 * in the history.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { HistoryCharts } from "../../components/history_charts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";

/** How many versions, newest first, the selector offers. */
export const VERSIONS_OFFERED = 20;

/** The versions to offer for a task at `version`, newest first. */
export function versionsOf(version: number): number[] {
  const count = Math.max(0, Math.min(VERSIONS_OFFERED, version));
  return Array.from({ length: count }, (_, i) => version - i);
}

function VersionSelect(
  { task, value, onChange }: {
    task: string;
    value: number | undefined;
    onChange: (version: number | undefined) => void;
  },
) {
  const { api } = useBoard();
  // The task's version changes with a deploy, not with its jobs.
  const migrations = useLiveResource(
    (signal) => api.get("/tasks/{task}/migrations", { params: { task }, signal }),
    [task],
    { relevant: () => false, minGap: 60_000 },
  );
  const versions = versionsOf(migrations.data?.version ?? 0);
  if (versions.length < 2) return null;
  return html`
    <select
      class="select history-version"
      aria-label="Version"
      value=${value === undefined ? "" : String(value)}
      onChange=${(e: Event) => {
        const chosen = (e.target as HTMLSelectElement).value;
        onChange(chosen === "" ? undefined : Number(chosen));
      }}
    >
      <option value="">All versions</option>
      ${versions.map((v) => html`<option key=${v} value=${String(v)}>v${v}</option>`)}
    </select>
  `;
}

/** The history card of one task (nothing where `HistoryCharts` shows none, its selector included). */
export function TaskHistory({ task }: { task: string }) {
  const [version, setVersion] = useState<number | undefined>(undefined);
  return html`
    <${HistoryCharts}
      task=${task}
      version=${version}
      extra=${html`<${VersionSelect} task=${task} value=${version} onChange=${setVersion} />`}
    />
  `;
}
