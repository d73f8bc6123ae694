/**
 * The job's payloads behind tabs: Data, Result, Error, Logs and Progress.
 * The tab shown first is the one that answers "what happened": the error of
 * a failed job, the result of a completed one, the progress of a running
 * one, the data otherwise. An empty
 * tab stays reachable and says why it is empty.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { type TabItem, Tabs } from "../../components/tabs.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { JsonBlock } from "./json_block.ts";
import { JobLogs } from "./job_logs.ts";
import { ProgressBar, ValueTree } from "./progress.ts";
import type { JobDetail } from "./types.ts";

type DetailTab = "data" | "result" | "error" | "logs" | "progress";

function firstTab(job: JobDetail): DetailTab {
  if (job.error !== null && (job.state === "failed" || job.state === "retrying")) return "error";
  if (job.state === "completed" && job.result !== null) return "result";
  if (job.state === "active" && job.progress !== null) return "progress";
  return "data";
}

/** A dot after the label of a tab that has something in it, so empty tabs read as empty. */
const FILLED = html`<span class="tab-dot"><span class="visually-hidden">has content</span></span>`;

function tabItems(job: JobDetail): TabItem[] {
  const filled = (present: boolean) => (present ? FILLED : undefined);
  return [
    { key: "data", label: "Data", badge: filled(job.data !== null) },
    { key: "result", label: "Result", badge: filled(job.result !== null) },
    { key: "error", label: "Error", badge: filled(job.error !== null) },
    { key: "logs", label: "Logs", badge: formatCount(job.logCount) },
    { key: "progress", label: "Progress", badge: filled(job.progress !== null) },
  ];
}

function resultNotice(state: string): string {
  if (state === "completed") return "The job completed without a result.";
  if (state === "failed" || state === "cancelled" || state === "expired") {
    return `No result: the job ${state}.`;
  }
  return "No result yet.";
}

function Panel({ tab, job }: { tab: DetailTab; job: JobDetail }) {
  switch (tab) {
    case "data":
      return html`<${JsonBlock} value=${job.data} empty="This job has no input data." />`;
    case "result":
      return html`<${JsonBlock} value=${job.result} empty=${resultNotice(job.state)} />`;
    case "error":
      return job.error === null
        ? html`<p class="empty">No error recorded.</p>`
        : html`<pre class="code-block error-block">${job.error}</pre>`;
    case "logs":
      return html`<${JobLogs} job=${job} />`;
    case "progress":
      if (job.progress === null) return html`<p class="empty">No progress reported.</p>`;
      return typeof job.progress === "number"
        ? html`
          <div class="progress-panel">
            <${ProgressBar} value=${job.progress} />
          </div>
        `
        : html`
          <div class="progress-panel">
            <${ValueTree} value=${job.progress} />
          </div>
        `;
  }
}

/** The tabbed card of the job page. */
export function DetailTabs({ job }: { job: JobDetail }) {
  const [tab, setTab] = useState<DetailTab>(() => firstTab(job));
  return html`
    <section class="card job-details">
      <${Tabs}
        items=${tabItems(job)}
        selected=${tab}
        onSelect=${(key: string) => setTab(key as DetailTab)}
        label="Job details"
        idPrefix="job"
      />
      <div
        id="job-panel"
        class="job-panel"
        role="tabpanel"
        aria-labelledby=${`job-tab-${tab}`}
        tabindex="0"
      >
        <${Panel} tab=${tab} job=${job} />
      </div>
    </section>
  `;
}
