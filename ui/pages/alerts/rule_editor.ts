/**
 * The form that makes a stored rule or changes one: its name, kind, tasks,
 * a threshold field in the kind's unit, `for` and `repeat`, and the sinks
 * it tells, picked by name from those the board was configured with (a
 * browser user never types an address). Problems show next to their field,
 * the API's 400 on the field its `param` names.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { ALERT_KINDS, KIND_THRESHOLDS, STORE_KINDS } from "../../../src/contract/alerts.ts";
import { toastSuccess } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import {
  type DraftErrors,
  draftOf,
  errorsFromApi,
  type RuleDraft,
  ruleFileOf,
} from "./rule_draft.ts";
import type { AlertKind, AlertRuleView, AlertsOverview, ThresholdUnit } from "./types.ts";

const THRESHOLD_HINT: Record<ThresholdUnit, string> = {
  count: "A count: it fires above it",
  percent: "A percentage, 0–100: it fires above it",
  duration: "A duration (30s, 5m, 2h, 1d, or ms): it fires when longer",
  none: "",
};

/** One labelled field with its hint and error. */
function Field(
  { id, label, hint, error, wide = false, children }: {
    id: string;
    label: string;
    hint?: string;
    error?: string;
    wide?: boolean;
    children: ComponentChildren;
  },
) {
  return html`
    <div class=${wide ? "alerts-field is-wide" : "alerts-field"}>
      <label class="alerts-label" for=${id}>${label}</label>
      ${children}
      ${hint ? html`<p class="alerts-hint muted" id=${`${id}-hint`}>${hint}</p>` : null}
      ${error ? html`<p class="field-error" id=${`${id}-error`}>${error}</p>` : null}
    </div>
  `;
}

/** The attributes tying an input to its hint and error. */
const described = (id: string, error: string | undefined) => ({
  id,
  "aria-invalid": error ? "true" : undefined,
  "aria-describedby": error ? `${id}-hint ${id}-error` : `${id}-hint`,
});

/** The editor; `rule` absent makes a new one. `onDone(saved)` closes it. */
export function RuleEditor(
  { rule, sinks, onDone }: {
    rule?: AlertRuleView;
    sinks: AlertsOverview["sinks"];
    onDone(saved: boolean): void;
  },
) {
  const { api } = useBoard();
  const id = useId();
  const [draft, setDraft] = useState<RuleDraft>(() => draftOf(rule));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const f = (name: string) => `${id}-${name}`;
  const text = (field: keyof RuleDraft) => ({
    value: draft[field],
    onInput: (event: Event) => {
      const value = (event.currentTarget as HTMLInputElement).value;
      setDraft((d) => ({ ...d, [field]: value }));
    },
    ...described(f(field), errors[field]),
  });
  const toggleSink = (name: string) =>
    setDraft((d) => ({
      ...d,
      sinks: d.sinks.includes(name) ? d.sinks.filter((s) => s !== name) : [...d.sinks, name],
    }));

  const save = async (event: Event) => {
    event.preventDefault();
    const result = ruleFileOf(draft);
    if ("errors" in result) return setErrors(result.errors);
    setSaving(true);
    try {
      if (rule) {
        await api.send("PUT", "/alerts/rules/{name}", {
          params: { name: rule.name },
          body: result.rule,
        });
      } else {
        await api.send("POST", "/alerts/rules", { body: result.rule });
      }
      toastSuccess(`Saved rule ${result.rule.name}`);
      onDone(true);
    } catch (error) {
      setErrors(errorsFromApi(error));
      setSaving(false);
    }
  };

  const { unit, fallback } = KIND_THRESHOLDS[draft.kind];
  return html`
    <form
      ref=${form}
      class="alerts-editor"
      aria-label=${rule ? `Edit rule ${rule.name}` : "New rule"}
      onSubmit=${save}
      onKeyDown=${(e: KeyboardEvent) => e.key === "Escape" && onDone(false)}
      noValidate
    >
      <div class="alerts-fields">
        <${Field} id=${f("name")} label="Name" error=${errors.name}>
          <input class="input" autocomplete="off" ...${text("name")} />
          <//>
          <${Field} id=${f("kind")} label="Kind" error=${errors.kind}>
          <select class="select" ...${described(f("kind"), errors.kind)} value=${draft.kind}
            onChange=${(e: Event) => {
              const kind = (e.currentTarget as HTMLSelectElement).value as AlertKind;
              setDraft((d) => ({ ...d, kind, threshold: "" }));
            }}>
            ${ALERT_KINDS.map((kind) => html`<option key=${kind} value=${kind}>${kind}</option>`)}
          </select>
        <//>
        ${STORE_KINDS.includes(draft.kind) ? null : html`
          <${Field} id=${f("tasks")} label="Tasks" error=${errors.tasks}
            hint="Task names, comma-separated; empty: every task">
            <input class="input" autocomplete="off" ...${text("tasks")} />
            <//>
        `}
        ${unit === "none" ? null : html`
          <${Field} id=${f("threshold")} label=${`Threshold (${
            unit === "duration" ? "duration" : unit === "percent" ? "%" : "count"
          })`}
            error=${errors.threshold}
            hint=${fallback === null
              ? THRESHOLD_HINT[unit]
              : `${THRESHOLD_HINT[unit]}; empty: ${fallback}${
                unit === "percent" ? "%" : unit === "duration" ? " ms" : ""
              }`}>
            <input class="input alerts-mono" autocomplete="off" inputmode=${unit === "duration"
              ? undefined
              : "decimal"} ...${text("threshold")} />
            <//>
        `}
        ${draft.kind !== "failureRate" ? null : html`
          <${Field} id=${f("window")} label="Window" error=${errors.window}
            hint="Finished jobs are counted over it">
            <input class="input alerts-mono" autocomplete="off" ...${text("window")} />
            <//>
            <${Field} id=${f("minFinished")} label="Fewest finished" error=${errors.minFinished}
              hint="Fewer finished in the window never fire">
              <input class="input" inputmode="numeric" autocomplete="off" ...${text(
                "minFinished",
              )} />
              <//>
        `}
        <${Field} id=${f("for")} label="For" error=${errors.for}
          hint="How long it holds before it fires">
          <input class="input alerts-mono" autocomplete="off" ...${text("for")} />
        <//>
        <${Field} id=${f("repeat")} label="Repeat" error=${errors.repeat}
          hint="How often a firing alert is told again; 0s: never">
          <input class="input alerts-mono" autocomplete="off" ...${text("repeat")} />
        <//>
      </div>
      <fieldset class="alerts-sinks" aria-invalid=${errors.sinks ? "true" : undefined}>
        <legend class="alerts-label">Tell these sinks</legend>
        ${sinks.map((sink) =>
          html`
            <label key=${sink.name} class="alerts-check">
              <input type="checkbox" checked=${draft.sinks.includes(sink.name)}
                onChange=${() => toggleSink(sink.name)} />
              ${sink.name} <span class="muted">${sink.type}</span>
            </label>
          `
        )}
        ${/* A stored rule's sinks the configuration has lost: shown, so they can be taken off. */
        (rule?.unknownSinks ?? []).map((name) =>
          html`
            <label key=${name} class="alerts-check">
              <input type="checkbox" checked=${draft.sinks.includes(name)}
                onChange=${() => toggleSink(name)} />
              ${name} <span class="alerts-sink-missing">no such sink</span>
            </label>
          `
        )}
        ${errors.sinks ? html`<p class="field-error">${errors.sinks}</p>` : null}
      </fieldset>
      ${errors.form ? html`<p class="field-error" role="alert">${errors.form}</p>` : null}
      <div class="alerts-editor-actions">
        <button type="submit" class="btn btn-primary btn-small" disabled=${saving}>
          ${saving ? "Saving…" : rule ? "Save changes" : "Create rule"}
        </button>
        <button type="button" class="btn btn-small" onClick=${() => onDone(false)}>Cancel</button>
      </div>
    </form>
  `;
}
