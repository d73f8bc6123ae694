/**
 * Where the board lives and how it is configured. The base path is not known
 * at build time: the server writes it into `<meta name="queue-board-base">`.
 *
 * @module
 */
import { type Api, ApiError } from "./api.ts";
import type { SignedInUser } from "../../src/contract/config.ts";
import { EXPORT_CAP } from "../../src/contract/config.ts";
import type { BoardConfig, Theme } from "./types.ts";

/**
 * The defaults used for any field `/api/config` leaves out; also what the
 * shell shows before it answers (nothing allowed: the page offers nothing
 * the user may turn out not to be permitted).
 */
export const DEFAULT_CONFIG: BoardConfig = {
  title: "queue-board",
  logo: null,
  favicon: null,
  theme: "auto",
  readOnly: false,
  editableData: false,
  refreshInterval: 5000,
  authEnabled: false,
  history: false,
  exportCap: EXPORT_CAP,
  allowed: [],
  user: null,
  roleNeeded: {},
};

/**
 * Whether a failed load of `/api/config` will pass by itself: Redis is down
 * (a board with login cannot vouch for a session meanwhile, so it answers
 * 503), or the board server does not answer.
 */
export function isPassing(error: Error): boolean {
  return error instanceof ApiError && (error.code === "STORE_UNAVAILABLE" || error.status === 0);
}

/** Reads the base path injected by the server; always ends with `/`. */
export function readBasePath(doc: Document = document): string {
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="queue-board-base"]');
  const raw = meta?.content ?? "/";
  const base = raw.startsWith("/") ? raw : "/";
  return base.endsWith("/") ? base : `${base}/`;
}

/** Fetches `/api/config` and fills in defaults for missing or malformed fields. */
export async function loadConfig(api: Api, signal?: AbortSignal): Promise<BoardConfig> {
  // Checked field by field all the same: a proxy or an older server may answer otherwise.
  const raw: Partial<BoardConfig> = await api.get("/config", { signal });
  const theme: Theme = raw.theme === "light" || raw.theme === "dark" ? raw.theme : "auto";
  const interval = Number(raw.refreshInterval);
  return {
    title: typeof raw.title === "string" && raw.title ? raw.title : DEFAULT_CONFIG.title,
    logo: typeof raw.logo === "string" && raw.logo ? raw.logo : null,
    favicon: typeof raw.favicon === "string" && raw.favicon ? raw.favicon : null,
    theme,
    readOnly: raw.readOnly === true,
    editableData: raw.editableData === true,
    refreshInterval: Number.isFinite(interval) && interval >= 500
      ? interval
      : DEFAULT_CONFIG.refreshInterval,
    authEnabled: raw.authEnabled === true,
    history: raw.history === true,
    exportCap: Number.isInteger(raw.exportCap) && raw.exportCap! > 0 ? raw.exportCap! : EXPORT_CAP,
    allowed: Array.isArray(raw.allowed)
      ? raw.allowed.filter((action): action is string => typeof action === "string")
      : [],
    user: signedInOf(raw.user),
    roleNeeded: Object.fromEntries(
      Object.entries(raw.roleNeeded ?? {}).filter(([, role]) => typeof role === "string"),
    ),
  };
}

/** The signed-in user of a config answer, when it names one. */
function signedInOf(user: unknown): SignedInUser | null {
  if (typeof user !== "object" || user === null) return null;
  const { name, role } = user as Partial<SignedInUser>;
  if (typeof name !== "string") return null;
  return { name, role: typeof role === "string" ? role : null };
}
