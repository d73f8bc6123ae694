/**
 * A small button that copies text to the clipboard and says so for a
 * moment. The text is computed on click (`text` may be a function), so a
 * big value is serialized only when someone asks for it.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { html } from "../lib/html.ts";

/** Copies `text` (or what it returns) on click; `label` names what is copied. */
export function CopyButton({ text, label }: { text: string | (() => string); label: string }) {
  const [done, setDone] = useState<"" | "Copied" | "Copy failed">("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof text === "function" ? text() : text);
      setDone("Copied");
    } catch {
      setDone("Copy failed");
    }
    setTimeout(() => setDone(""), 1500);
  };
  return html`
    <button type="button" class="btn-copy" title=${label} aria-label=${label}
      onClick=${copy}>${done || "Copy"}</button>
  `;
}
