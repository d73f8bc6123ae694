/**
 * Silences: what each mutes (a rule, a task, or everything), until when,
 * who set it and why; for a user allowed `alerts.update`, a form to add one
 * (for a duration or until a time) and a button to end each.
 *
 * @module
 */
import { useId, useState } from "preact/hooks";
import { confirmAction } from "../../components/confirm_dialog.ts";
import { LongName } from "../../components/long_text.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { Time } from "../../components/time.ts";
import { runAction } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import type { AlertSilence } from "./types.ts";

/** What a silence mutes, in words. */
export function scopeText(scope: AlertSilence["scope"]): string {
  if (scope === "all") return "every alert";
  return "rule" in scope ? `rule ${scope.rule}` : `task ${scope.task}`;
}

/** The silences in force. */
export function SilenceList(
  { silences, onRemoved }: { silences: AlertSilence[]; onRemoved?: () => void },
) {
  const { api } = useBoard();
  if (silences.length === 0) return html`<p class="empty">No silence: every alert is told.</p>`;
  const remove = async (silence: AlertSilence) => {
    const confirmed = await confirmAction({
      title: "End this silence?",
      message: `Alerts of ${scopeText(silence.scope)} are told again from the next evaluation.`,
      confirmLabel: "End silence",
    });
    if (!confirmed) return;
    const done = await runAction(
      () => api.send("DELETE", "/alerts/silences/{id}", { params: { id: silence.id } }),
      () => `Ended the silence of ${scopeText(silence.scope)}`,
    );
    if (done) onRemoved?.();
  };
  return html`
    <${ScrollArea}>
      <table class="table cards alerts-silences">
        <thead>
          <tr>
            <th scope="col">Mutes</th>
            <th scope="col">Until</th>
            <th scope="col">Reason</th>
            <th scope="col">By</th>
            ${onRemoved ? html`<th scope="col" class="alerts-actions-col">Actions</th>` : null}
          </tr>
        </thead>
        <tbody>
          ${silences.map((silence) =>
            html`
              <tr key=${silence.id}>
                <th scope="row"><${LongName} name=${scopeText(silence.scope)} /></th>
                <td data-label="Until"><${Time} at=${silence.until} /></td>
                <td data-label="Reason" class="alerts-reason">${silence.reason}</td>
                <td data-label="By">${silence.author} <span class="muted"><${Time}
                  at=${silence.createdAt} /></span></td>
                ${onRemoved
                  ? html`<td class="alerts-actions-col"><button type="button" class="btn btn-small"
                    aria-label=${`End the silence of ${scopeText(silence.scope)}`}
                    onClick=${() => remove(silence)}>End</button></td>`
                  : null}
              </tr>
            `
          )}
        </tbody>
      </table>
      <//>
  `;
}

type ScopeKind = "rule" | "task" | "all";

/** The form adding a silence; `rules` offers the rule names. */
export function SilenceForm({ rules, onAdded }: { rules: string[]; onAdded(): void }) {
  const { api } = useBoard();
  const id = useId();
  const [kind, setKind] = useState<ScopeKind>(rules.length > 0 ? "rule" : "task");
  const [target, setTarget] = useState(rules[0] ?? "");
  const [ends, setEnds] = useState<"duration" | "until">("duration");
  const [duration, setDuration] = useState("1h");
  const [until, setUntil] = useState("");
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const scope = kind === "all"
      ? "all" as const
      : kind === "rule"
      ? { rule: target.trim() }
      : { task: target.trim() };
    if (scope !== "all" && !("rule" in scope ? scope.rule : scope.task)) {
      return setError(`Name the ${kind} to mute.`);
    }
    const untilMs = new Date(until).getTime();
    if (ends === "until" && !(untilMs > Date.now())) return setError("Pick a time to come.");
    if (!reason.trim()) return setError("Say why: the others read it.");
    setError(null);
    setSaving(true);
    const body = ends === "until"
      ? { scope, until: untilMs, reason: reason.trim() }
      : { scope, duration: duration.trim(), reason: reason.trim() };
    const added = await runAction(
      () => api.send("POST", "/alerts/silences", { body }),
      (silence) => `Muted ${scopeText(silence.scope)}`,
    );
    setSaving(false);
    if (added) {
      setReason("");
      onAdded();
    }
  };

  const f = (name: string) => `${id}-${name}`;
  return html`
    <form class="alerts-silence-form" aria-label="Add a silence" onSubmit=${submit} noValidate>
      <div class="alerts-fields">
        <div class="alerts-field">
          <label class="alerts-label" for=${f("kind")}>Mute</label>
          <select id=${f("kind")} class="select" value=${kind} onChange=${(e: Event) => {
            const next = (e.currentTarget as HTMLSelectElement).value as ScopeKind;
            setKind(next);
            setTarget(next === "rule" ? rules[0] ?? "" : "");
          }}>
            <option value="rule">one rule</option>
            <option value="task">one task</option>
            <option value="all">everything</option>
          </select>
        </div>
        ${kind === "all" ? null : html`
          <div class="alerts-field">
            <label class="alerts-label" for=${f("target")}>${kind === "rule"
              ? "Rule"
              : "Task"}</label>
            ${kind === "rule"
              ? html`
                <select id=${f("target")} class="select" value=${target}
                  onChange=${(e: Event) => setTarget((e.currentTarget as HTMLSelectElement).value)}>
                                ${rules.map((name) =>
                                  html`<option key=${name} value=${name}>${name}</option>`
                                )}
                              </select>
              `
              : html`
                <input id=${f("target")} class="input" autocomplete="off" value=${target}
                  onInput=${(e: Event) => setTarget((e.currentTarget as HTMLInputElement).value)} />
              `}
          </div>
        `}
        <div class="alerts-field">
          <label class="alerts-label" for=${f("ends")}>Ends</label>
          <select id=${f("ends")} class="select" value=${ends} onChange=${(e: Event) =>
            setEnds((e.currentTarget as HTMLSelectElement).value as "duration" | "until")}>
            <option value="duration">after</option>
            <option value="until">at</option>
          </select>
        </div>
        <div class="alerts-field">
          <label class="alerts-label" for=${f("when")}>${ends === "duration"
            ? "Duration"
            : "Time"}</label>
          ${ends === "duration"
            ? html`
              <input id=${f("when")} class="input alerts-mono" autocomplete="off"
                value=${duration} placeholder="30m, 2h, 1d"
                onInput=${(e: Event) => setDuration((e.currentTarget as HTMLInputElement).value)} />
            `
            : html`
              <input id=${f("when")} class="input" type="datetime-local" value=${until}
                onInput=${(e: Event) => setUntil((e.currentTarget as HTMLInputElement).value)} />
            `}
        </div>
        <div class="alerts-field is-wide">
          <label class="alerts-label" for=${f("reason")}>Reason</label>
          <input id=${f("reason")} class="input" autocomplete="off" maxlength="500" value=${reason}
            placeholder="e.g. deploy in progress"
            onInput=${(e: Event) => setReason((e.currentTarget as HTMLInputElement).value)} />
        </div>
      </div>
      ${error ? html`<p class="field-error" role="alert">${error}</p>` : null}
      <div class="alerts-editor-actions">
        <button type="submit" class="btn btn-primary btn-small" disabled=${saving}>
          ${saving ? "Adding…" : "Add silence"}
        </button>
      </div>
    </form>
  `;
}
