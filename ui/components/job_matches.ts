/**
 * What the job-ID box shows when a start of an id opens no one job: the
 * jobs of every task whose id starts with it (`GET /jobs?prefix=`), each
 * with its task and state (an archived one, from the board's history,
 * marked), linked; else that none does, saying what was
 * looked at (on Redis, the ids this board listed last, not every job). A
 * job older than that is found by the task page's search, which reads all
 * of one task's jobs: the user chooses the task, none is picked for them.
 *
 * @module
 */
import { useState } from "preact/hooks";
import {
  type JobLookup,
  MAX_LOOKUP_MATCHES,
  RECENT_JOB_IDS,
} from "../../src/contract/job_lookup.ts";
import { useBoard } from "../lib/board_context.ts";
import { formatCount } from "../lib/format.ts";
import { html } from "../lib/html.ts";
import { href } from "../lib/router.ts";
import { StateBadge } from "./state_badge.ts";

/** What the lookup looked at, for the operator to judge a miss. */
const LOOKED_AT = `the ${formatCount(RECENT_JOB_IDS)} job IDs this board listed last`;

/** The task search for the ID's start, in a task the user chooses among the newest stats frame's. */
function TaskSearch({ onSearch }: { onSearch: (task: string) => void }) {
  const { live } = useBoard();
  const tasks = live.stats.value?.tasks.map((t) => t.name) ?? [];
  const [task, setTask] = useState("");
  if (tasks.length === 0) return null;
  return html`
    <span class="search-tasks">
      To look further back, search all of one task's jobs:
      <select
        class="select"
        aria-label="Task to search"
        value=${task}
        onChange=${(e: Event) => setTask((e.target as HTMLSelectElement).value)}
      >
        <option value="">Choose a task…</option>
        ${tasks.map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
      </select>
      <button
        type="button"
        class="btn btn-small"
        disabled=${!tasks.includes(task)}
        onClick=${() => onSearch(task)}
      >
        Search its jobs
      </button>
    </span>
  `;
}

/**
 * The lookup's answer for `prefix`: its matches linked (`onOpen` when one is
 * followed), or that there are none, with the task search (`onSearch`).
 */
export function JobMatches({ prefix, lookup, onOpen, onSearch }: {
  prefix: string;
  lookup: JobLookup;
  onOpen: () => void;
  onSearch: (task: string) => void;
}) {
  if (lookup.jobs.length === 0) {
    return html`
      No job has the ID “${prefix}”, and none of ${LOOKED_AT}, in any task, starts with it.
      <${TaskSearch} onSearch=${onSearch} />
    `;
  }
  return html`
    <div class="search-matches">
      <p>
        Jobs of every task whose ID starts with “${prefix}”, among ${LOOKED_AT}${lookup.jobs.some(
            (job) => job.archived,
          )
          ? " and the board's newest history"
          : ""}${lookup.more
          ? html`: the first ${MAX_LOOKUP_MATCHES} by ID (type more of it to narrow them).`
          : ":"}
      </p>
      <ul>
        ${lookup.jobs.map((job) =>
          html`
            <li key=${job.id}>
              <a class="mono" href=${href("jobs", job.id)} onClick=${onOpen}>${job.id}</a>
              <span class="search-match-task">${job.task}</span>
              <${StateBadge} state=${job.state} />
              ${job.archived ? html`<span class="archived-badge">Archived</span>` : null}
            </li>
          `
        )}
      </ul>
    </div>
  `;
}
