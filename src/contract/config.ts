/**
 * `GET /config`: what the UI needs to know about the board.
 *
 * @module
 */

/** Colour theme; `auto` follows the operating system (`prefers-color-scheme`). */
export type Theme = "light" | "dark" | "auto";

/** Who is signed in, as `GET /config` names them. */
export interface SignedInUser {
  /** Their name, as the audit trail records it. */
  name: string;
  /** Their preset role (`viewer`, `operator`, `admin`); null when a custom `can` decides. */
  role: string | null;
}

/** Most rows one export writes: the default of the `exportCap` option, and its largest. */
export const EXPORT_CAP = 100_000;

/** The answer of `GET /config`. */
export interface ConfigResponse {
  /** Header and tab title. */
  title: string;
  /** URL of the header's logo. */
  logo: string | null;
  /** URL of the favicon. */
  favicon: string | null;
  /** The default theme. */
  theme: Theme;
  /** Whether every mutation is refused (the UI hides them). */
  readOnly: boolean;
  /**
   * Whether a job's data is shown as stored (no redaction, no data
   * formatter), so an edited retry writes back only what was changed.
   */
  editableData: boolean;
  /** Polling period in milliseconds, while live updates are down. */
  refreshInterval: number;
  /** Whether the board asks for a login. */
  authEnabled: boolean;
  /** The path the board is served under. */
  basePath: string;
  /** Whether the board records a job history (its charts and a task's week read it). */
  history: boolean;
  /** The most rows an export holds (the `exportCap` option; `X-Export-Cap` on each export). */
  exportCap: number;
  /**
   * The actions the current user may do (`job.retry`, `payload.read`, ...;
   * the catalogue's names, in its order): the UI shows no control for one
   * that is not here. Each was asked with target `*` (`sessions.revoke`
   * with `mine`): a `can` that decides per target may still refuse one job,
   * task or schedule with 403 `FORBIDDEN`, which the UI shows as the
   * action's error. Mutations are left out on a read-only board.
   */
  allowed: string[];
  /** Who is signed in (the session's or the auth hook's user); null when no login names anyone. */
  user: SignedInUser | null;
  /**
   * For each action the user may not do that a preset role may, the least
   * such role (`{ "job.retry": "operator" }`), so the UI can say which role
   * a control it hides needs. Empty when a custom `can` decides.
   */
  roleNeeded: Record<string, string>;
}
