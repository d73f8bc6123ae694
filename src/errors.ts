/**
 * The error catalogue: every failure the API reports, as `{ error, code }`
 * with its HTTP status. Anything thrown that is not a {@link BoardError} is
 * answered as a 500 without its stack.
 *
 * @module
 */

import type { ErrorBody, ErrorCode } from "./contract/errors.ts";

export type { ErrorBody, ErrorCode };

/** The HTTP statuses the API answers errors with. */
export type ErrorStatus = 400 | 403 | 404 | 405 | 409 | 422 | 429 | 500 | 503 | 504;

const STATUS: Record<ErrorCode, ErrorStatus> = {
  INVALID_PARAM: 400,
  TASK_NOT_FOUND: 404,
  JOB_NOT_FOUND: 404,
  SCHEDULE_NOT_FOUND: 404,
  WORKFLOW_NOT_FOUND: 404,
  HISTORY_OFF: 404,
  INVALID_STATE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  READ_ONLY: 403,
  CROSS_ORIGIN: 403,
  HOST_NOT_ALLOWED: 403,
  FORBIDDEN: 403,
  TOO_MANY_ATTEMPTS: 429,
  STORE_UNAVAILABLE: 503,
  COUNTING: 503,
  AUDIT_UNAVAILABLE: 503,
  OUTCOME_UNKNOWN: 504,
  INCOMPATIBLE_STORE: 503,
  MIGRATION_IN_PROGRESS: 503,
  VERSION_UNKNOWN: 409,
  CONFLICT: 409,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INTERNAL: 500,
};

/** Every catalogue code, for schemas and documents. */
export const ERROR_CODES = Object.keys(STATUS) as [ErrorCode, ...ErrorCode[]];

/** The HTTP status a catalogue code is answered with. */
export function statusOf(code: ErrorCode): ErrorStatus {
  return STATUS[code];
}

/** An error the API answers with a known status and code. */
export class BoardError extends Error {
  /** The catalogue code. */
  readonly code: ErrorCode;
  /** The HTTP status it maps to. */
  readonly status: ErrorStatus;
  /** The request parameter or body field at fault (`INVALID_PARAM`), for clients to point at. */
  readonly param?: string;
  /** How many jobs an action on many jobs had acted on when it stopped part way. */
  readonly done?: number;
  /** When to ask again, seconds: the answer's `Retry-After`. */
  readonly retryAfterS?: number;

  /** Creates an error with a catalogue code and a message for the operator. */
  constructor(
    code: ErrorCode,
    message: string,
    options?: ErrorOptions & { param?: string; done?: number; retryAfterS?: number },
  ) {
    super(message, options);
    this.name = "BoardError";
    this.code = code;
    this.status = STATUS[code];
    if (options?.param !== undefined) this.param = options.param;
    if (options?.done !== undefined) this.done = options.done;
    if (options?.retryAfterS !== undefined) this.retryAfterS = options.retryAfterS;
  }
}

/** The store (Redis) cannot be reached or did not answer in time. */
export class StoreUnavailableError extends BoardError {
  /** Wraps the underlying cause. */
  constructor(message = "The task store is unavailable", options?: ErrorOptions) {
    super("STORE_UNAVAILABLE", message, options);
    this.name = "StoreUnavailableError";
  }
}

/**
 * A write was sent but not confirmed (no reply in time, or the connection
 * dropped after sending): it may have been applied, or may still be, e.g.
 * once a failover stops pausing writes. Unlike {@link StoreUnavailableError},
 * which means nothing was sent, the operator must look before retrying.
 */
export class OutcomeUnknownError extends BoardError {
  /** Wraps the underlying cause. */
  constructor(
    message = "The task store did not confirm the change: it may have been applied, or may " +
      "still be. Check before retrying.",
    options?: ErrorOptions,
  ) {
    super("OUTCOME_UNKNOWN", message, options);
    this.name = "OutcomeUnknownError";
  }
}

/** The keyspace was written in a wire format this board does not understand. */
export class IncompatibleStoreError extends BoardError {
  /** Names the versions found and understood. */
  constructor(message: string) {
    super("INCOMPATIBLE_STORE", message);
    this.name = "IncompatibleStoreError";
  }
}

/**
 * Shorthand for a 400 that names the parameter and what is allowed; the
 * answer carries the name in `param` too, so a form can mark the field
 * without parsing the message.
 */
export function invalidParam(name: string, reason: string): BoardError {
  return new BoardError("INVALID_PARAM", `Invalid ${name}: ${reason}`, { param: name });
}

/** The JSON body and status an error is answered with. */
export function errorBody(error: unknown): {
  status: ErrorStatus;
  body: ErrorBody;
} {
  if (error instanceof BoardError) {
    const body: ErrorBody = { error: error.message, code: error.code };
    if (error.param !== undefined) body.param = error.param;
    if (error.done !== undefined) body.done = error.done;
    return { status: error.status, body };
  }
  return { status: 500, body: { error: "Internal error", code: "INTERNAL" } };
}
