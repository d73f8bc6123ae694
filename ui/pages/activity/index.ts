/**
 * The Activity page (`/activity`): the audit trail of every mutation the
 * board performed, newest first, filtered by user, action, task, outcome
 * and whether an agent's MCP tool call made it, older pages by cursor, and the filtered trail as NDJSON. It
 * reloads after job events (a mutation makes some) and, like every live
 * list, on the backstop interval.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { urlOf } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCountOf, formatDuration } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { may } from "../../lib/permissions.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { ActivityTable } from "./activity_table.ts";
import { FilterBar, type Filters, filtersFrom, queryOf } from "./filters.ts";
import type { AuditResponse } from "./types.ts";
import type { AuditOutcome, AuditQuery } from "../../../src/contract/audit.ts";

/** Entries per page. */
const PAGE_SIZE = 50;

/** What the trail holds and where it lives, in one line. */
function TrailNote({ page }: { page: AuditResponse }) {
  return html`
    <p class="muted list-note">
      Keeps each entry ${formatDuration(page.maxAgeMs / 1000)}, at most about ${formatCountOf(
        page.maxEntries,
        "action",
      )} and as many refusals${page.shared
        ? ", shared by every board on this Redis"
        : ", in this board process only"}.
    </p>
  `;
}

/** The trail page: an admin's (`audit.read`); anyone else is told so, and nothing is read. */
export function ActivityPage() {
  const { config } = useBoard();
  if (may(config, "audit.read")) return html`<${Trail} />`;
  return html`
    <${Card} title="Activity">
      <p class="muted">
        The activity trail is for admins: your role may not read it. An admin sees every mutation
        made on this board here.
      </p>
      <//>
  `;
}

function Trail() {
  const { api, router } = useBoard();
  const filters = filtersFrom(router.search.value);
  // As the URL gives them: the server refuses an outcome it does not know (400 naming it).
  const filterQuery = {
    ...filters,
    outcome: filters.outcome as AuditOutcome | undefined,
    via: filters.via as AuditQuery["via"],
  };
  // Older pages: the cursors of the pages before the current one.
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors.at(-1);
  const { data, error, loading } = useLiveResource(
    (signal) =>
      api.get("/audit", {
        query: { ...filterQuery, limit: PAGE_SIZE, before },
        signal,
      }),
    [queryOf(filters), before],
    { paused: before !== undefined },
  );
  const choose = (next: Filters) => {
    setCursors([]);
    const search = queryOf(next);
    router.navigate(search ? `/activity?${search}` : "/activity", { replace: true });
  };
  return html`
    <${ErrorBanner} error=${error} />
    <${Card}
      title="Activity"
      flush=${true}
      actions=${html`
        <a class="btn" href=${`api/${
          urlOf("/audit", {
            query: { ...filterQuery, format: "ndjson" },
          })
        }`} download>
          Export NDJSON
        </a>
      `}
    >
      <${FilterBar} filters=${filters} actions=${data?.actions ?? []} onChange=${choose} />
      ${!data
        ? html`<p class="empty" role="status">${loading ? "Loading activity…" : "No data."}</p>`
        : data.entries.length === 0
        ? html`<p class="empty">No ${cursors.length ? "older " : ""}activity${
          Object.keys(filters).length
            ? " matches these filters"
            : " yet: mutations made on this board appear here"
        }.</p>`
        : html`<${ActivityTable} entries=${data.entries} />`}
      <nav class="list-pages" aria-label="Activity pages">
        <button class="btn" disabled=${cursors.length === 0} onClick=${() =>
          setCursors(cursors.slice(0, -1))}>Newer</button>
        <button class="btn" disabled=${!data?.next} onClick=${() =>
          setCursors([...cursors, data!.next!])}>Older</button>
      </nav>
      ${data ? html`<${TrailNote} page=${data} />` : null}
      <//>
  `;
}
