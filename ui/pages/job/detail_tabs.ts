/**
 * The job's payloads behind tabs: Data, Result, Error, Logs, Progress and
 * Attempts (every run, and each failed attempt's error, fetched when the tab opens).
 * The tab shown first is the one that answers "what happened": the error of
 * a failed job, the result of a completed one, the progress of a running
 * one, the data otherwise. An empty
 * tab stays reachable and says why it is empty.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { type TabItem, Tabs } from "../../components/tabs.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { namesPage } from "../../lib/page_query.ts";
import { html } from "../../lib/html.ts";
import { Attempts } from "./attempts.ts";
import { JobLogs } from "./job_logs.ts";
import { PayloadView } from "./payload_view.ts";
import { ProgressBar } from "./progress.ts";
import type { JobDetail } from "./types.ts";
import { PayloadsHidden, useMayReadPayloads } from "../../components/payloads_hidden.ts";

type DetailTab = "data" | "result" | "error" | "logs" | "progress" | "attempts";

/** The tabs of data, result and logs: only for a user allowed `payload.read`. */
const PAYLOAD_TABS: readonly DetailTab[] = ["data", "result", "logs"];

function firstTab(job: JobDetail, payloads: boolean, logPage: boolean): DetailTab {
  const { error, result, progress } = job.payloads;
  // A link to a page of the log (`?page=3`) opens on it.
  if (logPage && payloads) return "logs";
  if (error && (job.state === "failed" || job.state === "retrying")) return "error";
  if (job.state === "completed" && result && payloads) return "result";
  if (job.state === "active" && progress) return "progress";
  return payloads ? "data" : "error";
}

/** A dot after the label of a tab that has something in it, so empty tabs read as empty. */
const FILLED = html`<span class="tab-dot"><span class="visually-hidden">has content</span></span>`;

function tabItems(job: JobDetail, payloads: boolean): TabItem[] {
  const filled = (present: boolean) => (present ? FILLED : undefined);
  const items: TabItem[] = [
    { key: "data", label: "Data", badge: filled(!!job.payloads.data) },
    { key: "result", label: "Result", badge: filled(!!job.payloads.result) },
    { key: "error", label: "Error", badge: filled(!!job.payloads.error) },
    { key: "logs", label: "Logs", badge: formatCount(job.logCount) },
    { key: "progress", label: "Progress", badge: filled(!!job.payloads.progress) },
    { key: "attempts", label: "Attempts" },
  ];
  return payloads ? items : items.filter((item) => !PAYLOAD_TABS.includes(item.key as DetailTab));
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
      return html`<${PayloadView} job=${job} field="data" empty="This job has no input data." />`;
    case "result":
      return html`<${PayloadView} job=${job} field="result" empty=${resultNotice(job.state)} />`;
    case "error":
      return html`<${PayloadView} job=${job} field="error" empty="No error recorded." />`;
    case "logs":
      return html`<${JobLogs} job=${job} />`;
    case "attempts":
      return html`<${Attempts} job=${job} />`;
    case "progress":
      return typeof job.progress === "number"
        ? html`
          <div class="progress-panel">
            <${ProgressBar} value=${job.progress} />
          </div>
        `
        : html`<${PayloadView} job=${job} field="progress" empty="No progress reported." />`;
  }
}

/** The tabbed card of the job page. */
export function DetailTabs({ job }: { job: JobDetail }) {
  const payloads = useMayReadPayloads();
  const { router } = useBoard();
  const [tab, setTab] = useState<DetailTab>(() =>
    firstTab(job, payloads, namesPage(router.search.value))
  );
  return html`
    <section class="card job-details">
      <${Tabs}
        items=${tabItems(job, payloads)}
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
      ${payloads ? null : html`<${PayloadsHidden} subject="Its data, result and logs are" />`}
    </section>
  `;
}
