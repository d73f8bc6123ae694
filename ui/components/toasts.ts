/**
 * Success and error notices. Any module can raise one; the shell renders
 * them in a polite live region, so screen readers announce them too. An error
 * toast shows the API's own message and code.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { ApiError } from "../lib/api.ts";
import { html } from "../lib/html.ts";

/** One notice on screen. */
interface Toast {
  id: number;
  tone: "success" | "error";
  message: string;
  code: string | null;
}

const toasts = signal<Toast[]>([]);
let nextId = 1;

function dismiss(id: number): void {
  toasts.value = toasts.value.filter((toast) => toast.id !== id);
}

function show(tone: Toast["tone"], message: string, code: string | null): void {
  const id = nextId++;
  // Keep the newest few; an incident should not bury the page in toasts.
  toasts.value = [...toasts.value.slice(-3), { id, tone, message, code }];
  setTimeout(() => dismiss(id), tone === "error" ? 8000 : 4000);
}

/** Shows a success notice. */
export function toastSuccess(message: string): void {
  show("success", message, null);
}

/** Shows an error notice with the API's message (and code, when it has one). */
export function toastError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  show("error", message, error instanceof ApiError ? error.code : null);
}

/**
 * Runs a mutation and reports it: the success message (from the result) as a
 * success toast, a failure as an error toast. Resolves to the result, or
 * undefined when it failed.
 */
export async function runAction<T>(
  action: () => Promise<T>,
  success: (result: T) => string,
): Promise<T | undefined> {
  try {
    const result = await action();
    toastSuccess(success(result));
    return result;
  } catch (error) {
    toastError(error);
    return undefined;
  }
}

/** The toast stack; rendered once by the shell. */
export function Toasts() {
  return html`
    <div class="toasts" role="status" aria-live="polite">
      ${toasts.value.map((toast) =>
        html`
          <div key=${toast.id} class=${`toast toast-${toast.tone}`}>
            <span class="toast-message">${toast.message}</span>
            ${toast.code ? html`<code class="toast-code">${toast.code}</code>` : null}
            <button
              type="button"
              class="toast-close"
              aria-label="Dismiss"
              onClick=${() => dismiss(toast.id)}
            >×</button>
          </div>
        `
      )}
    </div>
  `;
}
