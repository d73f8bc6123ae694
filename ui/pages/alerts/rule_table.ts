/**
 * The rules: each with its state and since when it fires, its worst figure
 * against its threshold, the tasks it watches, the sinks it tells and where
 * it comes from (a rule declared in code is read-only). A rule opens to its
 * alerts, one per task (or schedule, or the store); a user allowed
 * `alerts.update` edits and deletes stored rules from its row.
 *
 * @module
 */
import { STORE_KINDS } from "../../../src/contract/alerts.ts";
import { Disclosure } from "../../components/disclosure.ts";
import { LongName } from "../../components/long_text.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { Time } from "../../components/time.ts";
import { PanelRow } from "../../components/panel_row.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { describeCondition, formatFigure } from "./threshold.ts";
import type { AlertRuleView, RuleAlert } from "./types.ts";

const STATE_TONE: Record<AlertRuleView["state"] | RuleAlert["phase"], string> = {
  firing: "bad",
  pending: "warn",
  ok: "ok",
  resolved: "neutral",
  notEvaluated: "neutral",
};

/** A state or phase as a pill; "not evaluated" says why it is no "ok". */
export function AlertState({ state }: { state: keyof typeof STATE_TONE }) {
  const className = `status status-${STATE_TONE[state]}`;
  if (state !== "notEvaluated") return html`<span class=${className}>${state}</span>`;
  return html`
    <span
      class=${className}
      title="No evaluation has read this rule yet: none has run, or the board evaluating the alerts has other rules"
    >not evaluated</span>
  `;
}

/** The figure of the worst alert: the highest among those firing, else pending, else any. */
export function worstFigure(rule: AlertRuleView): number | null {
  const order = ["firing", "pending", "resolved"] as const;
  for (const phase of order) {
    const figures = rule.alerts.filter((a) => a.phase === phase && a.figure !== null)
      .map((a) => a.figure as number);
    if (figures.length > 0) return Math.max(...figures);
  }
  return null;
}

function TaskList({ rule: { kind, tasks } }: { rule: AlertRuleView }) {
  if (STORE_KINDS.includes(kind)) return html`<span class="muted">the store</span>`;
  if (tasks === null) return html`<span class="muted">every task</span>`;
  return html`<span class="alerts-names">${
    tasks.map((task) => html`<${LongName} key=${task} name=${task} href=${href("tasks", task)} />`)
  }</span>`;
}

/** A rule's sinks; one the configuration no longer has is marked: its notices miss it. */
function SinkList({ rule }: { rule: AlertRuleView }) {
  return html`<span class="alerts-names">${
    // One item each, so a long list wraps between sinks rather than widening the table.
    rule.sinks.map((sink, index) => {
      const comma = index < rule.sinks.length - 1 ? "," : null;
      if (!rule.unknownSinks.includes(sink)) return html`<span key=${sink}>${sink}${comma}</span>`;
      return html`
        <span key=${sink}><span
          class="alerts-sink-missing"
          title="Not in the alerts configuration (it changed since the rule was stored): notices do not reach it"
        >${sink}: no such sink</span>${comma}</span>
      `;
    })}</span>`;
}

/** The alerts of one rule, opened under its row. */
function RuleAlerts({ rule }: { rule: AlertRuleView }) {
  if (rule.alerts.length === 0) {
    return html`<p class="muted alerts-none">No alert: nothing in scope is above the threshold.</p>`;
  }
  return html`
    <table class="table cards alerts-instances">
      <thead>
        <tr>
          <th scope="col">About</th>
          <th scope="col">State</th>
          <th scope="col" class="num">Figure</th>
          <th scope="col">Since</th>
          <th scope="col">Last told</th>
        </tr>
      </thead>
      <tbody>
        ${rule.alerts.map((alert) =>
          html`
            <tr key=${alert.subject ?? ""}>
              <td data-label="About">${alert.task !== null
                ? html`<a class="task-link" href=${href("tasks", alert.task)}>${alert.task}</a>`
                : alert.subject ?? html`<span class="muted">the store</span>`}</td>
              <td data-label="State">
                <${AlertState} state=${alert.phase} />
                ${alert.muted ? html`<span class="muted alerts-note">muted</span>` : null}
              </td>
              <td data-label="Figure" class="num">${formatFigure(alert.figure, rule.unit)}</td>
              <td data-label="Since">
                <${Time}
                  at=${alert.phase === "resolved"
                    ? alert.resolvedAt
                    : alert.firingSince ?? alert.pendingSince}
                />
              </td>
              <td data-label="Last told">
                <${Time} at=${alert.notifiedAt} />
              </td>
            </tr>
          `
        )}
      </tbody>
    </table>
  `;
}

/** The rules, which are open, and what the user may do to them. */
export interface RuleTableProps {
  rules: AlertRuleView[];
  /** The rules opened to their alerts. */
  open: ReadonlySet<string>;
  onToggle(name: string): void;
  /** Edit and delete, for users allowed `alerts.update`; absent: no actions column. */
  actions?: { onEdit(rule: AlertRuleView): void; onDelete(rule: AlertRuleView): void };
}

/** The rules table, in the API's order. */
export function RuleTable({ rules, open, onToggle, actions }: RuleTableProps) {
  const columns = actions ? 7 : 6;
  return html`
    <${ScrollArea}>
      <table class="table cards alerts-rules">
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">State</th>
            <th scope="col">Figure</th>
            <th scope="col">Tasks</th>
            <th scope="col">Sinks</th>
            <th scope="col">Origin</th>
            ${actions ? html`<th scope="col" class="alerts-actions-col">Actions</th>` : null}
          </tr>
        </thead>
        <tbody>
          ${rules.map((rule, index) => {
            const expanded = open.has(rule.name);
            const panelId = `alert-rule-${index}`;
            return html`
              <tr key=${rule.name} class=${`alerts-rule is-${rule.state}`}>
                <th scope="row">
                  <${Disclosure}
                    className="alerts-disclosure"
                    expanded=${expanded}
                    panel=${panelId}
                    onToggle=${() => onToggle(rule.name)}
                  >
                    <span class="alerts-rule-name">${rule.name}</span>
                  <//>
                  <span class="alerts-kind muted">${rule.kind}</span>
                </th>
                <td data-label="State">
                  <${AlertState} state=${rule.state} />
                  ${rule.firingSince !== null
                    ? html`<span class="alerts-since muted">since <${Time} at=${rule.firingSince} /></span>`
                    : null}
                </td>
                <td data-label="Figure">
                  <span class="alerts-figure">${formatFigure(worstFigure(rule), rule.unit)}</span>
                  <span class="muted alerts-condition">fires ${describeCondition(rule)}</span>
                </td>
                <td data-label="Tasks">
                  <${TaskList} rule=${rule} />
                </td>
                <td data-label="Sinks">
                  <${SinkList} rule=${rule} />
                </td>
                <td data-label="Origin">${rule.origin === "code"
                  ? html`<span class="muted" title="Read-only: change the alerts option or file">declared in code</span>`
                  : "stored"}</td>
                ${!actions ? null : html`
                  <td class="alerts-actions-col">
                    ${rule.origin === "stored"
                      ? html`
                        <span class="alerts-actions" role="group" aria-label=${`Actions for ${rule.name}`}>
                          <button type="button" class="btn btn-small" onClick=${() =>
                            actions.onEdit(rule)}>Edit</button>
                          <button type="button" class="btn btn-small btn-danger" onClick=${() =>
                            actions.onDelete(rule)}>Delete</button>
                        </span>
                      `
                      : null}
                  </td>
                `}
              </tr>
              ${expanded
                ? html`
                  <${PanelRow}
                    key=${`${rule.name}:alerts`}
                    className="alerts-panel"
                    id=${panelId}
                    columns=${columns}
                  >
                    <${RuleAlerts} rule=${rule} />
                    <//>
                `
                : null}
            `;
          })}
        </tbody>
      </table>
      <//>
  `;
}
