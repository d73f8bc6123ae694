/**
 * What the server shows in place of a value it will not or cannot show: the
 * UI reads these to warn before a masked value is written back.
 *
 * @module
 */

/** What a redacted value is replaced with. */
export const REDACTED = "[REDACTED]";

/**
 * What a value that contains itself is cut at. Decoded JSON never does; a
 * formatter's output may.
 */
export const CIRCULAR = "[Circular]";

/** What a value is shown as when it cannot be presented (e.g. its formatter threw). */
export const UNPRESENTABLE = "[UNPRESENTABLE]";
