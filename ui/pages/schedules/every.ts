/**
 * A schedule's interval (`every`, in ms) as the short duration the edit
 * form and the API take (`7d`). (The table shows the API's `description`,
 * worded on the server.)
 *
 * @module
 */

import { largestUnit } from "../../../src/contract/every_unit.ts";

/** `604800000` → `7d`, `90000` → `90s`, `1500` → `1500ms`: a duration the API parses back. */
export function everyAsDuration(ms: number): string {
  const { count, short } = largestUnit(ms);
  return `${count}${short}`;
}
