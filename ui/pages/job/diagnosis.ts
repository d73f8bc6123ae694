/**
 * "Why is it waiting?": the job page's card of what holds a waiting,
 * delayed, retrying or active job back (`GET /jobs/{id}/diagnosis`), each
 * reason in words with its evidence and a link. Asked only for those
 * states; asked again when the job's state changes (the page reloads the
 * job on its events) and on the job's own events.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { LockCell } from "../../components/liveness.ts";
import { Time } from "../../components/time.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatElapsed, shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import {
  DIAGNOSED_STATES,
  type DiagnosisReason,
  type EvidenceValue,
} from "../../../src/contract/diagnosis.ts";
import type { JobLockReading } from "./job_liveness.ts";
import type { Job } from "./types.ts";

/** An evidence key in words: `completedLast10Min` → `completed last 10 min`. */
const labelOf = (name: string) =>
  name.replace(/Ms$/, "").replace(/([A-Z]|\d+)/g, " $1").toLowerCase();

/** Keys whose values are job ids. */
const JOB_IDS = new Set(["holders", "running", "replaced"]);

function JobLinks({ ids }: { ids: readonly string[] }) {
  return html`${
    ids.map((id, i) =>
      html`${i ? ", " : ""}<a class="task-link mono" href=${href("jobs", id)} title=${id}>${
        shortId(id)
      }</a>`
    )
  }`;
}

/**
 * A running job's lock from the page's one lock reading (the header's), so
 * both count down the same time left and go "stalled?" together; the
 * diagnosis's own figure only when there is no reading.
 */
function LockLeft({ lock, ttlMs }: { lock: JobLockReading | null; ttlMs: EvidenceValue }) {
  if (lock?.known) return html`<${LockCell} lock=${lock.locks[0]} receivedAt=${lock.receivedAt} />`;
  return typeof ttlMs === "number"
    ? html`${formatElapsed(ttlMs)}`
    : html`<span class="muted">—</span>`;
}

function Value({ name, value }: { name: string; value: EvidenceValue }) {
  if (value === null) return html`<span class="muted">—</span>`;
  if (JOB_IDS.has(name)) return html`<${JobLinks} ids=${[value].flat().map(String)} />`;
  if (Array.isArray(value)) return html`${value.join(", ")}`;
  // A moment (`lastTakenAt`, `eventsSince`): how long ago, the date and time in its tooltip.
  if (typeof value === "number" && /(At|Since)$/.test(name)) return html`<${Time} at=${value} />`;
  if (typeof value === "number" && name.endsWith("Ms")) return html`${formatElapsed(value)}`;
  return html`<span class=${name === "key" ? "mono" : ""}>${String(value)}</span>`;
}

/** A reason's link (`/jobs/<id>` or `/tasks/<task>`, encoded) as an href and words. */
function linkOf(link: string): { to: string; label: string } {
  const [kind, value = ""] = link.split("#")[0].split("/").filter(Boolean).map(decodeURIComponent);
  return {
    to: href(kind, value),
    label: kind === "jobs" ? `Open job ${shortId(value)}` : `Open task ${value}`,
  };
}

function Reason({ reason, lock }: { reason: DiagnosisReason; lock: JobLockReading | null }) {
  const link = reason.link ? linkOf(reason.link) : null;
  return html`
    <li class="diagnosis-reason" data-code=${reason.code}>
      <p class="diagnosis-summary">${reason.summary}</p>
      <dl class="diagnosis-evidence">
        ${Object.entries(reason.evidence).map(([name, value]) =>
          html`
            <div key=${name}>
              <dt>${labelOf(name)}</dt>
              <dd>
                ${name === "lockTtlMs"
                  ? html`<${LockLeft} lock=${lock} ttlMs=${value} />`
                  : html`<${Value} name=${name} value=${value} />`}
              </dd>
            </div>
          `
        )}
      </dl>
      ${link ? html`<a class="diagnosis-link" href=${link.to}>${link.label}</a>` : null}
    </li>
  `;
}

/**
 * The card, for a job in a state a diagnosis looks into; nothing otherwise.
 * `lock`: the page's reading of an active job's lock (see `useJobLock`).
 */
export function DiagnosisCard({ job, lock }: { job: Job; lock: JobLockReading | null }) {
  if (!DIAGNOSED_STATES.includes(job.state)) return null;
  return html`<${Diagnosis} id=${job.id} state=${job.state} lock=${lock} />`;
}

function Diagnosis(
  { id, state, lock }: { id: string; state: string; lock: JobLockReading | null },
) {
  const { api } = useBoard();
  // A lock that runs out writes no event: the reading that sees it gone asks again.
  const lockHeld = lock?.known ? lock.locks[0]?.token != null : null;
  const { data, error } = useLiveResource(
    (signal) => api.get("/jobs/{jobId}/diagnosis", { params: { jobId: id }, signal }),
    [id, state, lockHeld],
    { relevant: (event) => event.id === id, minGap: 5_000 },
  );
  const title = state === "active" ? "Why is it still running?" : "Why is it waiting?";
  return html`
    <${Card}
      title=${title}
      actions=${data ? html`<span class="muted">read <${Time} at=${data.readAt} /></span>` : null}
    >
      <${ErrorBanner} error=${error} />
      ${!data
        ? (error ? null : html`<p class="muted" role="status">Reading what holds it…</p>`)
        : html`
          ${data.reasons.length === 0
            ? html`<p class="muted">Nothing holds it now.</p>`
            : html`<ol class="diagnosis">
            ${
              data.reasons.map((reason) =>
                html`<${Reason} key=${reason.code} reason=${reason} lock=${lock} />`
              )
            }
          </ol>`}
          ${data.unknown.map((note) =>
            html`<p key=${note} class="diagnosis-unknown muted">Not known here: ${note}</p>`
          )}
        `}
    <//>
  `;
}
