/**
 * What a {@link BoardStore} must have, by name, so that a store of one's own
 * is checked when the board is made rather than failing at its first use.
 *
 * @module
 */

import type { BoardStore } from "./types.ts";

// `satisfies` makes `deno check` fail when the port gains or loses a member not named here.
const MEMBERS = {
  appendAudit: "function",
  removeAudit: "function",
  listAudit: "function",
  getSessionRevocations: "function",
  revokeSessions: "function",
  signOutSession: "function",
  keepSessionRevocations: "function",
  holdLease: "function",
  releaseLease: "function",
  shareResult: "function",
  readSharedResult: "function",
  removeSharedResult: "function",
  noteAsked: "function",
  listAsked: "function",
  operations: "object",
  takeScanSlot: "function",
  renewScanSlot: "function",
  releaseScanSlot: "function",
  readAlertStates: "function",
  readAlertStatus: "function",
  writeAlertStates: "function",
  readKnownShapes: "function",
  writeKnownShapes: "function",
  appendAlertHistory: "function",
  listAlertHistory: "function",
  listAlertRules: "function",
  saveAlertRule: "function",
  removeAlertRule: "function",
  listAlertSilences: "function",
  addAlertSilence: "function",
  removeAlertSilence: "function",
  recordBoardRun: "function",
  listBoardRuns: "function",
  forgetBoardRuns: "function",
  writeBacklogSample: "function",
  readBacklogSamples: "function",
  shared: "boolean",
  close: "function",
} as const satisfies Record<keyof BoardStore, "function" | "object" | "boolean">;

/** The members `value` lacks to be a {@link BoardStore} (all of them for a non-object). */
export function missingStoreMembers(value: unknown): string[] {
  const members = value !== null && typeof value === "object"
    ? value as Record<string, unknown>
    : {};
  return Object.entries(MEMBERS)
    .filter(([name, type]) => typeof members[name] !== type || members[name] === null)
    .map(([name]) => name);
}
