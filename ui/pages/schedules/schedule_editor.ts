/**
 * The inline edit form of one schedule: cron (with time zone) or interval,
 * and the data as JSON, its hint naming the fields shown masked, which a
 * save keeps as stored. Problems show next to their field: JSON the browser
 * cannot parse, and the API's own 400 message for a bad cron, interval or
 * time zone, next to the field the answer's `param` names.
 *
 * @module
 */
import { PayloadsHidden, useMayReadPayloads } from "../../components/payloads_hidden.ts";
import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import { toastSuccess } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import {
  type DraftErrors,
  draftOf,
  errorsFromApi,
  maskedPaths,
  patchOf,
  type ScheduleDraft,
} from "./schedule_patch.ts";
import type { Schedule } from "./types.ts";

/** IANA zone names the browser knows, offered as suggestions (free text is still allowed). */
function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
}

/** What a text field shows and says; `id` ties the label, hint and error to the control. */
interface TextFieldProps {
  id: string;
  label: string;
  hint: string;
  error?: string;
  value: string;
  onInput(event: Event): void;
  /** Monospace, no spellcheck: for code-like values (cron, durations, JSON). */
  code?: boolean;
  /** A textarea of this many rows instead of a one-line input. */
  rows?: number;
  /** The id of a `<datalist>` of suggestions. */
  list?: string;
  placeholder?: string;
}

/** A labelled input (or textarea) with its hint and its error, tied together for screen readers. */
function TextField(
  { id, label, hint, error, value, onInput, code = false, rows, list, placeholder }: TextFieldProps,
) {
  const control = {
    id,
    value,
    onInput,
    list,
    placeholder,
    autocomplete: "off",
    spellcheck: !code,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": error ? `${id}-hint ${id}-error` : `${id}-hint`,
  };
  return html`
    <div class=${rows ? "schedule-field is-wide" : "schedule-field"}>
      <label class="schedule-label" for=${id}>${label}</label>
      ${rows
        ? html`<textarea class="textarea" rows=${rows} ...${control}></textarea>`
        : html`<input class=${code ? "input schedule-mono" : "input"} ...${control} />`}
      <p class="schedule-hint muted" id=${`${id}-hint`}>${hint}</p>
      ${error ? html`<p class="field-error" id=${`${id}-error`}>${error}</p>` : null}
    </div>
  `;
}

/** The form; `onDone` closes it (after a save, `saved` is true). */
export function ScheduleEditor(
  { schedule, onDone }: { schedule: Schedule; onDone(saved: boolean): void },
) {
  const { api } = useBoard();
  // Without payload.read the schedule came without its data: no field, so nothing is sent back.
  const payloads = useMayReadPayloads();
  const id = useId();
  const [draft, setDraft] = useState<ScheduleDraft>(() => draftOf(schedule.config));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const zones = useMemo(timeZones, []);
  const masked = useMemo(() => maskedPaths(schedule.config.data), [schedule.config.data]);

  // After a failed save, take the user to the first field that needs them.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const edit = (field: keyof ScheduleDraft) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    setDraft((d) => ({ ...d, [field]: value }));
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const result = patchOf(schedule.config, draft);
    if ("errors" in result) return setErrors(result.errors);
    if (Object.keys(result.body).length === 0) {
      return setErrors({ form: "Nothing to save: no field was changed." });
    }
    setSaving(true);
    try {
      await api.send("PUT", "/schedules/{name}", {
        params: { name: schedule.name },
        body: result.body,
      });
      toastSuccess(
        schedule.declaredInCode
          ? `Saved schedule ${schedule.name}; the next worker start resets it from the code`
          : `Saved schedule ${schedule.name}`,
      );
      onDone(true);
    } catch (error) {
      setErrors(errorsFromApi(error));
      setSaving(false);
    }
  };

  const f = (name: string) => `${id}-${name}`;
  return html`
    <form
      ref=${form}
      class="schedule-editor"
      aria-label=${`Edit schedule ${schedule.name}`}
      onSubmit=${save}
      onKeyDown=${(e: KeyboardEvent) => e.key === "Escape" && onDone(false)}
      noValidate
    >
      ${schedule.declaredInCode
        ? html`<p class="banner banner-warning" role="note">
          This schedule is declared in the App's code: the next worker start registers it
          again and resets what you change here. Change the code to keep it.
        </p>`
        : null}
      <fieldset class="schedule-kind">
        <legend class="schedule-label">Runs</legend>
        ${(["cron", "every"] as const).map((kind) =>
          html`
            <label key=${kind} class="schedule-radio">
              <input
                type="radio"
                name=${f("kind")}
                value=${kind}
                checked=${draft.kind === kind}
                onChange=${() => setDraft((d) => ({ ...d, kind }))}
              />
              ${kind === "cron" ? "On a cron expression" : "At a fixed interval"}
            </label>
          `
        )}
      </fieldset>
      <div class="schedule-fields">
        ${draft.kind === "cron"
          ? html`
            <${TextField}
              id=${f("cron")}
              label="Cron"
              hint="e.g. 0 3 * * * (every day at 03:00)"
              error=${errors.cron}
              value=${draft.cron}
              onInput=${edit("cron")}
              code=${true}
            />
            <${TextField}
              id=${f("timezone")}
              label="Time zone"
              hint="IANA name; empty for the workers' zone"
              error=${errors.timezone}
              value=${draft.timezone}
              onInput=${edit("timezone")}
              list=${f("zones")}
              placeholder="e.g. Europe/Berlin"
            />
            <datalist id=${f("zones")}>
              ${zones.map((zone) => html`<option key=${zone} value=${zone} />`)}
            </datalist>
          `
          : html`
            <${TextField}
              id=${f("every")}
              label="Every"
              hint="30s, 5m, 2h, 1d, or milliseconds"
              error=${errors.every}
              value=${draft.every}
              onInput=${edit("every")}
              code=${true}
            />
          `}
        ${!payloads ? html`<${PayloadsHidden} subject="Its data is" />` : html`
          <${TextField}
            id=${f("data")}
            label="Data (JSON)"
            hint=${masked.length > 0
              ? `What each run dispatches; empty for none. Kept as stored (masked here): ${
                masked.join(", ")
              }`
              : "What each run dispatches; empty for none"}
            error=${errors.data}
            value=${draft.data}
            onInput=${edit("data")}
            code=${true}
            rows=${Math.min(10, Math.max(3, draft.data.split("\n").length))}
          />
        `}
      </div>
      ${errors.form ? html`<p class="field-error" role="alert">${errors.form}</p>` : null}
      <div class="schedule-editor-actions">
        <button type="submit" class="btn btn-primary btn-small" disabled=${saving}>
          ${saving ? "Saving…" : "Save changes"}
        </button>
        <button type="button" class="btn btn-small" onClick=${() => onDone(false)}>Cancel</button>
      </div>
    </form>
  `;
}
