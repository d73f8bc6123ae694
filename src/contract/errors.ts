/**
 * The body of every error answer of the API: what went wrong, the catalogue
 * code, and the parameter at fault, so a form marks the field by its name
 * and never by reading the message.
 *
 * @module
 */

/** Machine-readable error codes of the REST API. */
export type ErrorCode =
  | "INVALID_PARAM"
  | "TASK_NOT_FOUND"
  | "JOB_NOT_FOUND"
  | "SCHEDULE_NOT_FOUND"
  | "WORKFLOW_NOT_FOUND"
  | "HISTORY_OFF"
  | "INVALID_STATE"
  | "IDEMPOTENCY_KEY_REUSED"
  | "READ_ONLY"
  | "CROSS_ORIGIN"
  | "HOST_NOT_ALLOWED"
  | "FORBIDDEN"
  | "TOO_MANY_ATTEMPTS"
  | "STORE_UNAVAILABLE"
  | "COUNTING"
  | "AUDIT_UNAVAILABLE"
  | "OUTCOME_UNKNOWN"
  | "INCOMPATIBLE_STORE"
  | "MIGRATION_IN_PROGRESS"
  | "VERSION_UNKNOWN"
  | "CONFLICT"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "INTERNAL";

/** The JSON body of an error answer. */
export interface ErrorBody {
  /** What went wrong, for the operator. */
  error: string;
  /** The catalogue code. */
  code: ErrorCode;
  /** The parameter or body field at fault, on `INVALID_PARAM` answers that name one. */
  param?: string;
  /** How many jobs an action on many jobs had acted on when it stopped part way. */
  done?: number;
}

/**
 * When a reader answered 503 `COUNTING` asks again, s (its `Retry-After`):
 * the board's first read of every task is under way, and the next answer
 * comes from it.
 */
export const COUNTING_RETRY_S = 2;
