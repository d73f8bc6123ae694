/**
 * The shapes `GET api/schedules` and the schedule actions answer with: the
 * contract's (type-only, so no server code reaches the bundle).
 *
 * @module
 */
export type {
  ScheduleActionResponse,
  ScheduleConfig,
  ScheduleRecord as Schedule,
  ScheduleRemoveResponse,
  TriggerResponse,
} from "../../../src/contract/schedules.ts";
