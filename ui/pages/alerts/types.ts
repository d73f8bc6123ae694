/**
 * The alerts API's answers under the names the Alerts page uses; every
 * shape is written once, in `src/contract/alerts.ts`.
 *
 * @module
 */
export type {
  AlertHistoryEntry,
  AlertInstanceView as RuleAlert,
  AlertKind,
  AlertPhase,
  AlertRuleView,
  AlertSilence,
  AlertsOverview,
  TestNoticeResponse,
  ThresholdUnit,
} from "../../../src/contract/alerts.ts";
