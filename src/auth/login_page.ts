/**
 * The login form, rendered on the server so it works without JavaScript.
 *
 * @module
 */

/** What the login page shows. */
export interface LoginPageOptions {
  title: string;
  logo: string | null;
  /** Where the form posts (`{basePath}/auth/login`). */
  action: string;
  /** Where to go after signing in (already checked to be inside the board). */
  redirect: string;
  /** A message for the user, or null. */
  error: string | null;
  /** The CSP nonce that lets the page's one style element through. */
  nonce: string;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

const STYLE = `
:root { color-scheme: light dark; --bg: #f4f5f7; --card: #fff; --text: #1b1f24; --muted: #5b6470;
  --border: #d5d9df; --accent: #3157d5; --danger: #b42318; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1216; --card: #181c22; --text: #e6e9ee;
  --muted: #9aa3ae; --border: #2c323b; --accent: #7b9cff; --danger: #ff8a80; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg);
  color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { width: min(360px, calc(100vw - 32px)); background: var(--card); border: 1px solid var(--border);
  border-radius: 12px; padding: 28px; }
h1 { font-size: 20px; margin: 0 0 20px; display: flex; gap: 10px; align-items: center; }
h1 img { height: 28px; }
label { display: block; font-weight: 600; margin: 14px 0 6px; }
input { width: 100%; padding: 9px 11px; border: 1px solid var(--border); border-radius: 8px;
  background: transparent; color: inherit; font: inherit; }
input:focus-visible, button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
button { margin-top: 22px; width: 100%; padding: 10px; border: 0; border-radius: 8px;
  background: var(--accent); color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
.error { margin: 0 0 8px; padding: 9px 11px; border-radius: 8px; color: var(--danger);
  border: 1px solid currentColor; }
`;

/** Renders the login page. Every value is escaped. */
export function renderLoginPage(options: LoginPageOptions): string {
  const title = escapeHtml(options.title);
  const logo = options.logo ? `<img src="${escapeHtml(options.logo)}" alt="">` : "";
  const error = options.error
    ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · ${title}</title>
<style nonce="${escapeHtml(options.nonce)}">${STYLE}</style>
</head>
<body>
<main>
<h1>${logo}<span>${title}</span></h1>
${error}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="redirect" value="${escapeHtml(options.redirect)}">
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>`;
}
