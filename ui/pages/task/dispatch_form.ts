/**
 * The task page's Dispatch form (only for users who may `job.dispatch`):
 * a JSON editor for the job's data and the options `delay` (a duration,
 * `5m`, as the board takes everywhere), `priority` (up to what taskora's
 * score keeps in order) and `concurrencyKey`, sent to
 * `POST /tasks/{task}/dispatch`. The JSON is parsed here first; when the
 * task declares an input schema the board checks the data against it
 * before the App dispatches it, and its issues (or any field's refusal)
 * are shown under the field. A collect task takes none of the options: the
 * card says so, and that the job answered is its buffer's flush job. A
 * retried send of the same form carries the same `Idempotency-Key`, so it
 * makes no second job. Without the App the card says that dispatching
 * needs `createBoard(app)`.
 *
 * @module
 */
import { useRef, useState } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { toastError, toastSuccess } from "../../components/toasts.ts";
import { ApiError } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { may } from "../../lib/permissions.ts";
import { href } from "../../lib/router.ts";
import { useTaskDefinition } from "../../lib/task_definition.ts";
import {
  COLLECT_DISPATCH,
  type DispatchBody,
  MAX_PRIORITY,
} from "../../../src/contract/dispatch.ts";

/** A fresh key for one dispatch the operator asks for. */
function newKey(): string {
  return crypto.randomUUID();
}

/** The form's fields as typed. */
interface Draft {
  data: string;
  delay: string;
  priority: string;
  concurrencyKey: string;
}

/**
 * The request a draft makes, or why it makes none (a field's problem). The
 * delay goes as typed: the board parses durations and names the field it
 * refuses.
 */
function requestOf(draft: Draft): DispatchBody | { field: keyof Draft; problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(draft.data);
  } catch (error) {
    return { field: "data", problem: `not JSON: ${(error as Error).message}` };
  }
  const request: DispatchBody = { data };
  if (draft.delay.trim() !== "") request.delay = draft.delay.trim();
  if (draft.priority.trim() !== "") {
    const value = Number(draft.priority);
    if (!Number.isInteger(value) || value < 0) {
      return { field: "priority", problem: `a whole number from 0 to ${MAX_PRIORITY}` };
    }
    request.priority = value;
  }
  if (draft.concurrencyKey.trim() !== "") request.concurrencyKey = draft.concurrencyKey.trim();
  return request;
}

/** The Dispatch card of one task. */
export function DispatchForm({ task }: { task: string }) {
  const { api, config } = useBoard();
  const definition = useTaskDefinition(task);
  const [draft, setDraft] = useState<Draft>({
    data: "{}",
    delay: "",
    priority: "",
    concurrencyKey: "",
  });
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef<string | null>(null);
  // Without the App no dispatch can be checked or versioned: no form (the header says why).
  if (config.readOnly || !may(config, "job.dispatch") || !definition.data?.definition) return null;
  const edit = (field: keyof Draft) => (event: Event) => {
    key.current = null; // another job: a new key
    setDraft({ ...draft, [field]: (event.target as HTMLInputElement).value });
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const request = requestOf(draft);
    if ("field" in request) return setProblem({ field: request.field, message: request.problem });
    setProblem(null);
    setBusy(true);
    const idempotencyKey = key.current ??= newKey();
    try {
      const { jobId, created } = await api.send("POST", "/tasks/{task}/dispatch", {
        params: { task },
        body: request,
        idempotencyKey,
      });
      key.current = null;
      setMade(jobId);
      toastSuccess(
        created
          ? `Dispatched ${task}: job ${jobId}`
          : `The earlier try had dispatched it: job ${jobId}`,
      );
    } catch (error) {
      // The schema's issues go under the field they are about; any refusal is told too.
      if (error instanceof ApiError && error.param) {
        setProblem({ field: error.param, message: error.message });
      }
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  const { collect, inputSchema } = definition.data.definition;
  const fieldProblem = (field: string) =>
    problem?.field === field
      ? html`<p class="dispatch-problem" role="alert">${problem.message}</p>`
      : null;
  return html`
    <${Card} title="Dispatch">
      <form class="dispatch-form" onSubmit=${submit}>
        <label class="dispatch-data">
          <span>${inputSchema
            ? "Data (JSON, checked against the task's input schema)"
            : "Data (JSON; the task declares no input schema to check it against)"}</span>
          <textarea rows="6" spellcheck="false" value=${draft.data} onInput=${edit("data")} />
          ${fieldProblem("data")}
        </label>
        ${collect ? html`<p class="muted dispatch-collect">${COLLECT_DISPATCH}.</p>` : html`
          <div class="dispatch-options">
            <label><span>Delay (30s, 5m, 2h)</span>
              <input value=${draft.delay} onInput=${edit("delay")} />
              ${fieldProblem("delay")}
            </label>
            <label><span>Priority (0–${MAX_PRIORITY})</span>
              <input inputmode="numeric" value=${draft.priority} onInput=${edit("priority")} />
              ${fieldProblem("priority")}
            </label>
            <label><span>Concurrency key</span>
              <input value=${draft.concurrencyKey} onInput=${edit("concurrencyKey")} />
            </label>
          </div>
        `}
        <div class="dispatch-actions">
          <button type="submit" class="btn btn-primary" disabled=${busy}>Dispatch</button>
          ${made
            ? html`<span class="muted">${collect ? "Flush job" : "Job"} <a href=${
              href("jobs", made)
            }><code>${made}</code></a></span>`
            : null}
        </div>
      </form>
      <//>
  `;
}
