/**
 * The task's definition, as its taskora App declares it: version and
 * since, retry and backoff, timeout, concurrency, TTL,
 * collect batching and the schedules its code declares. Without the App
 * there is no card, only a line saying what needs the App.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { Card } from "../../components/card.ts";
import { formatCount, formatCountOf, formatElapsed } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { Fact } from "../../components/fact.ts";
import { href } from "../../lib/router.ts";
import {
  APP_ONLY_NOTE,
  type TaskDefinition,
  useTaskDefinition,
} from "../../lib/task_definition.ts";

const NONE = html`<span class="muted">none</span>`;

function retryText(retry: TaskDefinition["retry"]): ComponentChildren {
  if (!retry || retry.attempts === null) return NONE;
  const parts = [formatCountOf(retry.attempts, "attempt")];
  if (retry.backoff) {
    const from = retry.delay !== null ? ` from ${formatElapsed(retry.delay)}` : "";
    const max = retry.maxDelay !== null ? `, max ${formatElapsed(retry.maxDelay)}` : "";
    parts.push(`${retry.backoff} backoff${from}${max}${retry.jitter ? ", jitter" : ""}`);
  }
  return parts.join(" · ");
}

function concurrencyText(d: TaskDefinition): string {
  // A contract-only registration runs no worker here: the implementing App's options decide.
  if (!d.hasHandler) return "unknown: set where the task is implemented";
  const parts = [d.concurrency !== null ? `${formatCount(d.concurrency)} per worker` : "default"];
  if (d.singleton) parts.push("singleton");
  if (d.concurrencyLimit !== null) parts.push(`${formatCount(d.concurrencyLimit)} per key`);
  return parts.join(" · ");
}

function Definition({ d }: { d: TaskDefinition }) {
  return html`
    <dl class="facts definition-facts">
      <${Fact} label="Version">
        v${d.version} · since ${d.since}${d.migrations
          ? ` · ${formatCountOf(d.migrations, "migration")}`
          : ""}
      <//>
      <${Fact} label="Retry">${retryText(d.retry)}<//>
      <${Fact} label="Timeout">${d.timeout !== null ? formatElapsed(d.timeout) : NONE}<//>
      <${Fact} label="Concurrency">${concurrencyText(d)}<//>
      <${Fact} label="TTL">${d.ttl
        ? `${formatElapsed(d.ttl.maxMs)} waiting, then ${d.ttl.onExpire}`
        : NONE}<//>
      ${d.collect
        ? html`<${Fact} label="Collect">
          batches ≤ ${formatCount(d.collect.maxSize)} · ${formatElapsed(d.collect.delayMs)} quiet ·
          ${formatElapsed(d.collect.maxWaitMs)} max wait
        <//>`
        : null}
      <${Fact} label="Schedules in code">
        ${d.schedules.length === 0
          ? NONE
          : d.schedules.map((name, i) =>
            html`${i ? ", " : ""}<a class="task-link" href=${href("schedules")}>${name}</a>`
          )}
      <//>
      ${d.hasHandler ? null : html`<${Fact} label="Handler">elsewhere (contract only)<//>`}
    </dl>
  `;
}

/**
 * The definition card of the task page; without the App, one line instead
 * of it and of the dispatch form, which cannot work then either.
 */
export function DefinitionCard({ task }: { task: string }) {
  const { data } = useTaskDefinition(task);
  if (!data) return null;
  if (!data.definition) {
    return html`
      <p class="muted no-app">
        Not shown: this task's definition and a dispatch form. ${APP_ONLY_NOTE}
      </p>
    `;
  }
  return html`
    <${Card} title="Definition">
      <${Definition} d=${data.definition} />
      <//>
  `;
}
