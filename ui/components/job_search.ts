/**
 * The global job-ID search: opens the job's page, by its whole ID or by the
 * 8 characters the board shows (the API resolves a unique start of an ID),
 * or says why it cannot. `/` focuses it (see `lib/shortcuts.ts`).
 *
 * @module
 */
import type { Ref } from "preact";
import { useState } from "preact/hooks";
import type { JobDetailResponse } from "../../src/contract/jobs.ts";
import { ApiError } from "../lib/api.ts";
import { useBoard } from "../lib/board_context.ts";
import { html } from "../lib/html.ts";
import { href } from "../lib/router.ts";

/** The search form of the top bar. */
export function JobSearch({ inputRef }: { inputRef: Ref<HTMLInputElement> }) {
  const { api, router } = useBoard();
  const [query, setQuery] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const id = query.trim();
    if (!id) return;
    setBusy(true);
    setProblem(null);
    try {
      // A short ID answers the whole job: its page lives at its whole ID.
      const job = await api.get<JobDetailResponse>(href("jobs", id));
      setQuery("");
      router.navigate(`/${href("jobs", job.id)}`);
    } catch (err) {
      setProblem(
        err instanceof ApiError && err.status === 404
          ? `No job with ID “${id}”`
          : (err as Error).message,
      );
    } finally {
      setBusy(false);
    }
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
        html`<p id="job-search-problem" class="search-problem" role="alert">${problem}</p>`}
    </form>
  `;
}
