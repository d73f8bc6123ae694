/**
 * "Clean": delete finished jobs of one state older than an age. The board
 * first asks the API how many jobs that is (a dry run), says the number in
 * the confirmation, and deletes only after the operator confirms it. An age
 * the API refuses is shown at the age, found by the answer's `param`.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { FINISHED_STATES, type FinishedState } from "../../../src/contract/states.ts";
import { confirmAction } from "../../components/confirm_dialog.ts";
import { runAction, toastError } from "../../components/toasts.ts";
import { ApiError } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

/** Preset ages, as the API's duration strings. */
const AGES = [
  { value: "1h", label: "1 hour" },
  { value: "1d", label: "1 day" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
] as const;

const CUSTOM = "custom";

/**
 * A duration as the API takes it, with its unit required: a bare number
 * means milliseconds to the API, which is never what "older than 30" meant.
 */
const DURATION = /^\d+(ms|s|m|h|d)$/;

/** Whether the API refused the age (rather than the task, the store, …). */
function refusesAge(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "INVALID_PARAM" && error.param === "olderThan";
}

/** The clean form of a task; `onDone` reloads the page, `onClose` hides the form. */
export function CleanForm(
  { task, onDone, onClose }: { task: string; onDone(): void; onClose(): void },
) {
  const { api } = useBoard();
  const [state, setState] = useState<FinishedState>("completed");
  const [age, setAge] = useState<string>("1d");
  const [custom, setCustom] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const params = { task };
  const preview = (olderThan: string) =>
    api.send("POST", "/tasks/{task}/clean", {
      params,
      body: { state, olderThan, dryRun: true },
    });
  const clean = (olderThan: string) =>
    api.send("POST", "/tasks/{task}/clean", { params, body: { state, olderThan } });

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const olderThan = age === CUSTOM ? custom.trim() : age;
    if (!DURATION.test(olderThan)) {
      setProblem("Write an age with its unit, like 45m, 12h or 3d.");
      return;
    }
    setNote(null);
    setBusy(true);
    try {
      const { count } = await preview(olderThan);
      if (count === 0) {
        setNote(`Nothing to clean: no ${state} jobs older than ${olderThan}.`);
        return;
      }
      const confirmed = await confirmAction({
        title: `Delete ${state} jobs?`,
        message:
          `${formatCountOf(count, `${state} job`)} older than ${olderThan} will be deleted. ` +
          "This cannot be undone.",
        confirmLabel: "Delete jobs",
        keepLabel: "Keep jobs",
        tone: "danger",
      });
      if (!confirmed) return;
      const done = await runAction(
        () => clean(olderThan),
        ({ removed }) => `Removed ${formatCountOf(removed, "job")}`,
      );
      if (done) {
        onDone();
        onClose();
      }
    } catch (error) {
      if (refusesAge(error)) setProblem(error.message);
      else toastError(error);
    } finally {
      setBusy(false);
    }
  };

  return html`
    <form class="clean-form" onSubmit=${onSubmit} aria-label="Clean finished jobs">
      <label class="field">
        <span class="field-label">Delete jobs that are</span>
        <select class="select" value=${state} onChange=${(e: Event) => {
          setState((e.target as HTMLSelectElement).value as FinishedState);
          setNote(null);
        }}>
          ${FINISHED_STATES.map((s) => html`<option key=${s} value=${s}>${s}</option>`)}
        </select>
      </label>
      <label class="field">
        <span class="field-label">and finished more than</span>
        <select class="select" value=${age} onChange=${(e: Event) => {
          setAge((e.target as HTMLSelectElement).value);
          setProblem(null);
          setNote(null);
        }}>
          ${AGES.map((a) => html`<option key=${a.value} value=${a.value}>${a.label} ago</option>`)}
          <option value=${CUSTOM}>Custom age…</option>
        </select>
      </label>
      ${age === CUSTOM
        ? html`
          <label class="field">
            <span class="field-label">Custom age</span>
            <input
              class="input clean-age"
              placeholder="e.g. 45m"
              value=${custom}
              aria-invalid=${problem ? "true" : undefined}
              aria-describedby=${problem ? "clean-problem" : undefined}
              onInput=${(e: Event) => {
                setCustom((e.target as HTMLInputElement).value);
                setProblem(null);
                setNote(null);
              }}
            />
          </label>
        `
        : null}
      <div class="clean-buttons">
        <button type="submit" class="btn btn-danger" disabled=${busy}>Clean jobs…</button>
        <button type="button" class="btn" onClick=${onClose}>Close</button>
      </div>
      ${problem
        ? html`<p id="clean-problem" class="field-error" role="alert">${problem}</p>`
        : null}
      ${note ? html`<p class="clean-note muted" role="status">${note}</p>` : null}
    </form>
  `;
}
