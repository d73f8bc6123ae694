/**
 * The error groups, most frequent first: how many jobs, which tasks, when
 * the first and last of them failed, and the error itself. A disclosure
 * button opens a group to its jobs; (unless read-only) a group can be
 * retried as a whole.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { Disclosure } from "../../components/disclosure.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { Time } from "../../components/time.ts";
import { PanelRow } from "../../components/panel_row.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { GroupJobs } from "./group_jobs.ts";
import { jobCount, retryGroup } from "./retry.ts";
import { RetryButton, RetryColumnHead } from "./retry_button.ts";
import type { DeadLetterGroup } from "./types.ts";
import { may } from "../../lib/permissions.ts";

/** The groups table; `refresh` is handed to open groups so they reload with the page. */
export function GroupTable(
  { groups, task, refresh, onRetried }: {
    groups: DeadLetterGroup[];
    task: string | null;
    refresh: number;
    onRetried(): void;
  },
) {
  const { api, config, router } = useBoard();
  // A link to a group's page (`dlq?group=…&page=3`) opens that group.
  const [open, setOpen] = useState<ReadonlySet<string>>(() => {
    const linked = new URLSearchParams(router.search.value).get("group");
    return new Set(linked === null ? [] : [linked]);
  });
  const toggle = (pattern: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(pattern)) next.add(pattern);
      return next;
    });
  const sorted = [...groups].sort((a, b) => b.count - a.count);
  const columns = may(config, "dlq.retry") ? 6 : 5;

  return html`
    <${ScrollArea}>
      <table class="table cards dlq-groups">
        <thead>
          <tr>
            <th scope="col">Error</th>
            <th scope="col" class="num">Jobs</th>
            <th scope="col">Tasks</th>
            <th scope="col">First seen</th>
            <th scope="col">Last seen</th>
            ${!may(config, "dlq.retry") ? null : html`<${RetryColumnHead} />`}
          </tr>
        </thead>
        <tbody>
          ${sorted.map((group, index) => {
            const expanded = open.has(group.pattern);
            const panelId = `dlq-group-${index}`;
            return html`
              <tr key=${group.pattern} class=${expanded ? "dlq-group is-open" : "dlq-group"}>
                <th scope="row" class="dlq-error-cell">
                  <${Disclosure}
                    className="dlq-disclosure"
                    expanded=${expanded}
                    panel=${panelId}
                    onToggle=${() => toggle(group.pattern)}
                  >
                    <span class="dlq-sample">${group.sample}</span>
                  <//>
                </th>
                <td class="num dlq-count" data-label="Jobs">${formatCount(group.count)}</td>
                <td data-label="Tasks">
                  <span class="dlq-tasks">
                    ${group.tasks.map((name) =>
                      html`<a key=${name} class="dlq-task" href=${
                        href("tasks", name)
                      } title=${name}>${name}</a>`
                    )}
                  </span>
                </td>
                <td data-label="First seen"><${Time} at=${group.firstSeen} /></td>
                <td data-label="Last seen"><${Time} at=${group.lastSeen} /></td>
                ${!may(config, "dlq.retry") ? null : html`
                  <td class="dlq-group-actions">
                    <${RetryButton}
                      label=${`Retry ${jobCount(group.count)}`}
                      description=${`Retry ${jobCount(group.count)} failing with ${group.sample}`}
                      retry=${() => retryGroup(api, group, task)}
                      onRetried=${onRetried}
                    />
                  </td>
                `}
              </tr>
              ${expanded
                ? html`
                  <${PanelRow}
                    key=${`${group.pattern}:jobs`}
                    className="dlq-group-panel"
                    id=${panelId}
                    columns=${columns}
                  >
                    <${GroupJobs}
                      group=${group}
                      task=${task}
                      refresh=${refresh}
                      onRetried=${onRetried}
                    />
                    <//>
                `
                : null}
            `;
          })}
        </tbody>
      </table>
      <//>
  `;
}
