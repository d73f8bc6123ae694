/**
 * A text field of a filter bar, applied on Enter or on leaving it. What is
 * typed stays until it is applied: the bar draws again with every answer
 * and stats frame, and a field showing only the applied filter would put
 * that back over the user's typing each time.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { html } from "../lib/html.ts";

/** Props of {@link FilterText}. */
export interface FilterTextProps {
  name: string;
  label: string;
  /** The filter as applied (in the URL). */
  value: string;
  type?: "text" | "number" | "datetime-local";
  onApply(value: string): void;
}

/** A labelled text filter keeping its draft until it is applied. */
export function FilterText({ name, label, value, type = "text", onApply }: FilterTextProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const typed = (event: Event) => (event.currentTarget as HTMLInputElement).value;
  return html`
    <label class=${type === "datetime-local" ? "filter-field filter-field-wide" : "filter-field"}>
      <span class="muted">${label}</span>
      <input class="input" type=${type} name=${name} value=${draft ?? value}
        onInput=${(event: Event) => setDraft(typed(event))}
        onChange=${(event: Event) => {
          setDraft(null);
          onApply(typed(event).trim());
        }} />
    </label>
  `;
}
