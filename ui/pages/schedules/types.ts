/**
 * The shapes `GET api/schedules` answers with: the port's own records
 * (`src/source/types.ts`, type-only, so no server code reaches the bundle).
 *
 * @module
 */
export type {
  ScheduleConfig,
  ScheduleRecord as Schedule,
} from "../../../src/contract/schedules.ts";
