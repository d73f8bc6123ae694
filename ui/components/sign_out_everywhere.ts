/**
 * "Sign out everywhere": ends every session of the signed-in user (other
 * browsers, a copied cookie, this one), after a confirmation, then goes to
 * the login form.
 *
 * @module
 */
import { useBoard } from "../lib/board_context.ts";
import { html } from "../lib/html.ts";
import { confirmAction } from "./confirm_dialog.ts";
import { toastError } from "./toasts.ts";

/** The button, for the sidebar's account block. */
export function SignOutEverywhere() {
  const { api } = useBoard();
  const signOut = async () => {
    const confirmed = await confirmAction({
      title: "Sign out everywhere?",
      message: "Every session of yours ends: in other browsers, on other devices, and here. " +
        "You sign in again afterwards.",
      confirmLabel: "Sign out everywhere",
      tone: "danger",
      keepLabel: "Stay signed in",
    });
    if (!confirmed) return;
    try {
      await api.send("POST", "/sessions/mine/revoke");
      // Relative to the page's <base href>: the board's login form.
      location.assign("login");
    } catch (error) {
      toastError(error);
    }
  };
  return html`
    <button type="button" class="signout" onClick=${signOut}>Sign out everywhere</button>
  `;
}
