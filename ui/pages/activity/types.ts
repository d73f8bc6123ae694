/**
 * The shapes the audit API answers with: the contract's, type-only, so no
 * server code reaches the bundle.
 *
 * @module
 */
export type { AuditEntry, AuditResponse } from "../../../src/contract/audit.ts";
