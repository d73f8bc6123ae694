/**
 * The global job-ID search: opens the job's page, by its whole ID (looked
 * up exactly, in every task) or by the 8 characters the board shows (the
 * API resolves a unique start of an ID among the jobs it listed lately),
 * or says why it cannot. When no job is found it says what was searched and
 * offers the task page's search, which finds an ID's start among all of a
 * task's jobs. `/` focuses it (see `lib/shortcuts.ts`).
 *
 * @module
 */
import type { Ref } from "preact";
import { useState } from "preact/hooks";
import { ApiError } from "../lib/api.ts";
import { useBoard } from "../lib/board_context.ts";
import { html } from "../lib/html.ts";
import { href } from "../lib/router.ts";

/** Why a search opened nothing: no job has the ID searched, or the API's message. */
type Problem = { notFound: string } | { message: string };

/**
 * No job found: what was searched, and the task search for the ID's start
 * (a task and its page's "ID starts with" filter), among the tasks the
 * newest stats frame names (offered once the first one has come).
 */
function NotFound({ id, onSearch }: { id: string; onSearch: (task: string) => void }) {
  const { live } = useBoard();
  const tasks = live.stats.value?.tasks.map((t) => t.name) ?? [];
  const [picked, setTask] = useState("");
  const task = tasks.includes(picked) ? picked : tasks[0] ?? "";
  return html`
    No job has the ID “${id}”, and no recently seen job starts with it.
    ${tasks.length > 0
      ? html`
        <span class="search-tasks">
          <select
            class="select"
            aria-label="Task to search"
            value=${task}
            onChange=${(e: Event) => setTask((e.target as HTMLSelectElement).value)}
          >
            ${tasks.map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
          </select>
          <button type="button" class="btn btn-small" onClick=${() => onSearch(task)}>
            Search its jobs
          </button>
        </span>
      `
      : null}
  `;
}

/** The search form of the top bar. */
export function JobSearch({ inputRef }: { inputRef: Ref<HTMLInputElement> }) {
  const { api, router } = useBoard();
  const [query, setQuery] = useState("");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

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
      setProblem(
        err instanceof ApiError && err.status === 404
          ? { notFound: id }
          : { message: (err as Error).message },
      );
    } finally {
      setBusy(false);
    }
  };

  // The task page's filter finds the ID's start among all of that task's jobs.
  const searchTask = (task: string, id: string) => {
    setProblem(null);
    setQuery("");
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
      ${problem &&
        html`
          <div id="job-search-problem" class="search-problem" role="alert">
            ${"message" in problem ? problem.message : html`
              <${NotFound}
                id=${problem.notFound}
                onSearch=${(task: string) => searchTask(task, problem.notFound)}
              />
            `}
          </div>
        `}
    </form>
  `;
}
