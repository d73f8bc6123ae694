/**
 * The global job-ID search: opens the job's page, by its whole ID (looked
 * up exactly, in every task) or by a start of it that fits one job (the API
 * resolves it among the jobs it listed lately). A start that fits several
 * jobs, or none, is looked up in every task (`GET /jobs?prefix=`) and the
 * matches listed (`job_matches.ts`); without the `search` permission, or
 * under 6 characters, the API's answer says why nothing opened. `/` focuses it
 * (see `lib/shortcuts.ts`). Beside it, "History" opens the search of the
 * board's job history (`pages/history`), the box's text as an id prefix,
 * when the board records one and the user may read it.
 *
 * @module
 */
import type { Ref } from "preact";
import { useState } from "preact/hooks";
import { type JobLookup, MIN_ID_PREFIX } from "../../src/contract/job_lookup.ts";
import { ApiError } from "../lib/api.ts";
import { useBoard } from "../lib/board_context.ts";
import { html } from "../lib/html.ts";
import { may, mayReadHistory } from "../lib/permissions.ts";
import { href } from "../lib/router.ts";
import { JobMatches } from "./job_matches.ts";

/** Why a search opened nothing: the jobs whose ID starts with the one searched, or the API's message. */
type Problem = { notFound: string; lookup: JobLookup } | { message: string };

/** Whether `err` says the ID opens no one job: none has it, or several start with it. */
function opensNoOneJob(err: unknown): boolean {
  return err instanceof ApiError &&
    (err.status === 404 || (err.status === 400 && err.param === "jobId"));
}

/** The search form of the top bar. */
export function JobSearch({ inputRef }: { inputRef: Ref<HTMLInputElement> }) {
  const { api, router, config } = useBoard();
  const [query, setQuery] = useState("");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  /** Whether the start of `id` can be looked up: long enough, by a user who may search. */
  const canLookUp = (id: string) => id.length >= MIN_ID_PREFIX && may(config, "search");

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const id = query.trim();
    if (!id) return;
    setBusy(true);
    setProblem(null);
    try {
      // A short ID answers the whole job: its page lives at its whole ID.
      const job = await api.get("/jobs/{jobId}", { params: { jobId: id } });
      setQuery("");
      router.navigate(`/${href("jobs", job.id)}`);
    } catch (err) {
      try {
        setProblem(
          opensNoOneJob(err) && canLookUp(id)
            ? { notFound: id, lookup: await api.get("/jobs", { query: { prefix: id } }) }
            : { message: (err as Error).message },
        );
      } catch (lookupErr) {
        setProblem({ message: (lookupErr as Error).message });
      }
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setProblem(null);
    setQuery("");
  };

  // The task page's filter finds the ID's start among all of that task's jobs.
  const searchTask = (task: string, id: string) => {
    close();
    router.navigate(`/${href("tasks", task)}?${new URLSearchParams({ id })}`);
  };

  return html`
    <form class="search" role="search" onSubmit=${onSubmit}>
      <label class="visually-hidden" for="job-search">Find a job by ID</label>
      <input
        id="job-search"
        ref=${inputRef}
        class="search-input"
        type="search"
        placeholder="Job ID…  ( / )"
        autocomplete="off"
        spellcheck=${false}
        value=${query}
        aria-invalid=${problem ? "true" : undefined}
        aria-describedby=${problem ? "job-search-problem" : undefined}
        onInput=${(e: Event) => {
          setQuery((e.target as HTMLInputElement).value);
          setProblem(null);
        }}
        onKeyDown=${(e: KeyboardEvent) => {
          if (e.key === "Escape") (e.target as HTMLInputElement).blur();
        }}
      />
      <button type="submit" class="btn btn-small" disabled=${busy}>Open</button>
      ${mayReadHistory(config) &&
        html`
          <a class="btn btn-small" title="Search the job history: every task, state, time, error"
            href=${query.trim()
              ? `history?${new URLSearchParams({ idPrefix: query.trim() })}`
              : "history"}
            onClick=${close}>History</a>
        `}
      ${problem &&
        html`
          <div id="job-search-problem" class="search-problem" role="alert">
            ${"message" in problem ? problem.message : html`
              <${JobMatches}
                prefix=${problem.notFound}
                lookup=${problem.lookup}
                onOpen=${close}
                onSearch=${(task: string) => searchTask(task, problem.notFound)}
              />
            `}
          </div>
        `}
    </form>
  `;
}
