/**
 * The shapes `GET api/schedules` and the schedule actions answer with: the
 * contract's (type-only, so no server code reaches the bundle).
 *
 * @module
 */
export type {
  ScheduleActionResponse,
  ScheduleConfig,
  ScheduleRemoveResponse,
  ScheduleRun,
  ScheduleView as Schedule,
  TriggerResponse,
} from "../../../src/contract/schedules.ts";
