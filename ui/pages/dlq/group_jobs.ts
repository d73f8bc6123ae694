/**
 * The jobs of one error group, shown when the group is expanded: a page at
 * a time from `GET api/dlq?pattern=`, each with a link to the job and
 * (unless read-only) its own retry and a box to check it: the checked jobs
 * are retried together. The page reloads when a job fails (it
 * may join the group), when an event says a listed job left the failed
 * state (retried, here or anywhere), and when the group's count changes.
 * The page size is every list's (in the URL, remembered for the board's
 * next lists); the URL keeps the group last paged and its page
 * (`dlq?group=…&page=3&size=25`), which a shared link opens.
 *
 * @module
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ErrorBanner } from "../../components/error_banner.ts";
import { PagedList } from "../../components/paged_list.ts";
import { Pagination } from "../../components/pagination.ts";
import { ShortId } from "../../components/short_id.ts";
import { ErrorText, LongName } from "../../components/long_text.ts";
import { Time } from "../../components/time.ts";
import { type Placed, placedAt, urlOf } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { ExportLinks } from "../../components/export_links.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { PageCheck, RowCheck } from "../../components/select_boxes.ts";
import { formatCount } from "../../lib/format.ts";
import { type Selection, useSelection } from "../../lib/selection.ts";
import { jobCount, retryChecked, retryJob } from "./retry.ts";
import { RetryButton, RetryColumnHead } from "./retry_button.ts";
import {
  type DeadLetterGroup,
  type DeadLetters,
  dlqQuery,
  type FailedJob,
  joinsDlq,
} from "./types.ts";
import { may } from "../../lib/permissions.ts";
import { type PageSize, pageStateOf, withPage } from "../../lib/page_query.ts";
import { rememberedPageSize, rememberPageSize } from "../../lib/page_size.ts";
import { useStepBackWhenEmpty } from "../../lib/use_url_pager.ts";

/** Jobs per page unless the URL or the remembered size says otherwise: a group is a list within a list. */
const PAGE_SIZE = 25;

function listed(page: DeadLetters | null, id: string): boolean {
  return page?.jobs.some((job) => job.id === id) ?? false;
}

const NO_JOBS: readonly FailedJob[] = [];

/**
 * One group's page: its own, shown in the URL (with the group's pattern)
 * once paged; the URL's when it names this group, as a shared link does.
 * The size is the URL's or the remembered one.
 */
function useGroupPager(pattern: string) {
  const { router } = useBoard();
  const search = router.search.value;
  const linked = new URLSearchParams(search).get("group") === pattern;
  const state = pageStateOf(search, rememberedPageSize(PAGE_SIZE));
  const [offset, keepOffset] = useState(linked ? state.offset : 0);
  const show = (next: number, size: PageSize) => {
    keepOffset(next);
    const query = new URLSearchParams(search);
    query.set("group", pattern);
    router.navigate(`/dlq?${withPage(query.toString(), Math.floor(next / size) + 1, size)}`, {
      replace: true,
    });
  };
  return {
    offset,
    size: state.size,
    setOffset: (next: number) => show(next, state.size),
    setSize: (size: PageSize, next: number) => {
      rememberPageSize(size);
      show(next, size);
    },
  };
}

/** Over the table while jobs are checked: how many, Retry, Clear. */
function CheckedBar(
  { jobs, selection, onRetried }: {
    jobs: readonly FailedJob[];
    selection: Selection;
    onRetried(): void;
  },
) {
  const { api } = useBoard();
  if (selection.ids.size === 0) return null;
  const checked = jobs.filter((job) => selection.ids.has(job.id));
  return html`
    <div class="bulk-bar" role="region" aria-label="Selected jobs">
      <span class="bulk-count">${formatCount(checked.length)} selected</span>
      <span class="bulk-actions">
        <${RetryButton}
          label=${`Retry ${jobCount(checked.length)}`}
          retry=${() => retryChecked(api, checked)}
          onRetried=${() => {
            selection.clear();
            onRetried();
          }}
        />
        <button type="button" class="btn btn-small" onClick=${selection.clear}>Clear</button>
      </span>
    </div>
  `;
}

/** The group's jobs; a new `refresh` (after a retry on the page) reloads them. */
export function GroupJobs(
  { group, task, refresh, onRetried }: {
    group: DeadLetterGroup;
    task: string | null;
    refresh: number;
    onRetried(): void;
  },
) {
  const { api, config } = useBoard();
  const pager = useGroupPager(group.pattern);
  const { offset, setOffset, size } = pager;
  const query = dlqQuery({ task, pattern: group.pattern, limit: size, offset });
  const joins = joinsDlq(task);
  const { data, error, loading, reload } = useLiveResource<Placed<DeadLetters>>(
    (signal) => placedAt(api.get("/dlq", { query, signal }), offset, size),
    [task, group.pattern, offset, size],
    {
      relevant: (event): boolean =>
        joins(event) || (event.kind !== "failed" && listed(data, event.id)),
      keepWithin: [task, group.pattern],
    },
  );
  const version = `${refresh}:${group.count}`;
  const shown = useRef(version);
  useEffect(() => {
    if (shown.current === version) return;
    shown.current = version;
    reload();
  }, [version]);
  const selection = useSelection(data?.jobs ?? NO_JOBS);
  // After retries the last page can empty out, or a link names a page past the end: show the last.
  useStepBackWhenEmpty(useMemo(() => data && { ...data, items: data.jobs }, [data]), setOffset);

  return html`
    <div class="dlq-jobs">
      ${group.pattern !== group.sample
        ? html`<p class="dlq-pattern">
          <span class="muted">Grouped as</span> <code>${group.pattern}</code>
        </p>`
        : null}
      <${ExportLinks}
        path=${`api/${urlOf("/dlq/export", { query: dlqQuery({ task, pattern: group.pattern }) })}`}
        label="this group's failed jobs"
      />
      <${ErrorBanner} error=${error} />
      <${CheckedBar} jobs=${data?.jobs ?? NO_JOBS} selection=${selection} onRetried=${onRetried} />
      ${data === null ? html`<p class="muted dlq-jobs-loading">Loading jobs…</p>` : html`
        <${PagedList} busy=${loading}>
          <table class="table cards dlq-jobs-table">
            <caption class="visually-hidden">Failed jobs with this error</caption>
            <thead>
              <tr>
                ${!may(config, "dlq.retry") ? null : html`
                  <th scope="col" class="select-cell">
                    <${PageCheck} rows=${data.jobs} selection=${selection} />
                  </th>
                `}
                <th scope="col">Job</th>
                <th scope="col">Task</th>
                <th scope="col" class="num">Attempts</th>
                <th scope="col">Failed</th>
                <th scope="col">Error</th>
                ${!may(config, "dlq.retry") ? null : html`<${RetryColumnHead} />`}
              </tr>
            </thead>
            <tbody>
              ${data.jobs.map((job) =>
                html`
                  <tr key=${job.id}>
                    ${!may(config, "dlq.retry") ? null : html`
                      <td class="select-cell">
                        <${RowCheck} id=${job.id} selection=${selection} />
                      </td>
                    `}
                    <th scope="row">
                      <${ShortId} id=${job.id} href=${href("jobs", job.id)} what="job" />
                    </th>
                    <td data-label="Task">
                      <${LongName} name=${job.task} href=${href("tasks", job.task)} />
                    </td>
                    <td class="num" data-label="Attempts">${job.attempt}/${job.maxAttempts}</td>
                    <td data-label="Failed"><${Time} at=${job.timestamps.finished} /></td>
                    <td class="dlq-job-error wide" data-label="Error">
                      <${ErrorText} text=${job.error} fallback="—" />
                    </td>
                    ${!may(config, "dlq.retry") ? null : html`
                      <td class="dlq-job-actions">
                        <${RetryButton}
                          label="Retry"
                          description=${`Retry job ${job.id}`}
                          retry=${() => retryJob(api, job)}
                          onRetried=${onRetried}
                        />
                      </td>
                    `}
                  </tr>
                `
              )}
            </tbody>
          </table>
          <${Pagination}
            offset=${data.offset}
            limit=${data.limit}
            total=${data.total}
            onChange=${setOffset}
            onSize=${pager.setSize}
          />
          <//>
      `}
    </div>
  `;
}
