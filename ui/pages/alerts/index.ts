/**
 * The Alerts page: the rules and where each stands, their alerts, the
 * silences, the sinks with a test notice each, and the notices sent. Users
 * allowed `alerts.update` also make, change and delete stored rules, add
 * and end silences and send test notices; the others see no such control.
 * The figures are those of the last evaluation, and the page says when that
 * was; it reads again after each evaluation and when what fires changes.
 *
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { confirmAction } from "../../components/confirm_dialog.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { Time } from "../../components/time.ts";
import { runAction } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount, formatCountOf, formatDuration } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { may } from "../../lib/permissions.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { HistoryTable } from "./history.ts";
import { type HistoryFilter, HistoryFilterForm } from "./history_filter.ts";
import { RuleEditor } from "./rule_editor.ts";
import { RuleTable } from "./rule_table.ts";
import { SilenceForm, SilenceList } from "./silences.ts";
import { SinkList } from "./sinks.ts";
import type { AlertRuleView, AlertsOverview } from "./types.ts";

/** The notices the page shows. */
const HISTORY_SHOWN = 50;
/** After an evaluation is due, time for it to be written before reading. */
const AFTER_EVALUATION_MS = 1000;

/** Reads again once the next evaluation should have been written, so the figures are current. */
function useReloadAfterEvaluation(data: AlertsOverview | null, reload: () => void): void {
  useEffect(() => {
    if (!data?.enabled) return;
    const every = data.evaluateEveryMs;
    const due = (data.asOf ?? Date.now()) + every + AFTER_EVALUATION_MS - Date.now();
    const timer = setTimeout(reload, Math.min(Math.max(due, AFTER_EVALUATION_MS), 2 * every));
    return () => clearTimeout(timer);
  }, [data]);
}

/** What the page says when no `alerts` option or file was given. */
function AlertsOff() {
  return html`
    <${Card} title="Alerts are off">
      <p>
        No rules are configured, so nothing is evaluated and nobody is told. Give the board the
        ${" "}<code>alerts</code> option (embedded) or start it with <code>--alerts FILE</code>, a
        JSON file of sinks and rules; see <code>docs/alerts.md</code>. Rules can then also be made
        here.
      </p>
      <//>
  `;
}

/** The rules card's heading note: how many, and as of which evaluation. */
function Evaluated({ data }: { data: AlertsOverview }) {
  const silenced = data.silenced > 0 ? ` (${formatCount(data.silenced)} more silenced)` : "";
  const counts = `${formatCountOf(data.rules.length, "rule")} · ${
    formatCountOf(data.firing, "alert")
  } firing${silenced} · evaluated every ${formatDuration(data.evaluateEveryMs / 1000)} · `;
  return html`
    <span class="muted alerts-evaluated">${counts}${data.asOf === null
      ? "not yet evaluated"
      : html`last evaluation <${Time} at=${data.asOf} />`}</span>
  `;
}

/** The page. */
export function AlertsPage() {
  const { api, config, live } = useBoard();
  const canUpdate = may(config, "alerts.update");
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<AlertRuleView | "new" | null>(null);
  // Job events say nothing the page shows: it follows evaluations and the alerts frame.
  const overview = useLiveResource((signal) => api.get("/alerts", { signal }), [], {
    relevant: () => false,
  });
  const [historyFilter, setHistoryFilter] = useState<HistoryFilter>({});
  const history = useLiveResource(
    (signal) =>
      api.get("/alerts/history", { signal, query: { limit: HISTORY_SHOWN, ...historyFilter } }),
    [historyFilter],
    { relevant: () => false },
  );
  const reload = () => {
    overview.reload();
    history.reload();
  };
  useReloadAfterEvaluation(overview.data, reload);
  const frame = live.alerts.value;
  const seenFrame = useRef(frame);
  useEffect(() => {
    if (frame === seenFrame.current) return;
    seenFrame.current = frame;
    reload();
  }, [frame]);

  const data = overview.data;
  const error = overview.error ?? history.error;
  if (data === null) {
    return html`
      <${ErrorBanner} error=${error} />
      <p class="empty">${overview.loading ? "Loading…" : "No data."}</p>
    `;
  }
  if (!data.enabled) {
    return html`
      <${ErrorBanner} error=${error} />
      <${AlertsOff} />
    `;
  }

  const toggle = (name: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(name)) next.add(name);
      return next;
    });

  const remove = async (rule: AlertRuleView) => {
    const confirmed = await confirmAction({
      title: `Delete rule ${rule.name}?`,
      message: `${rule.name} is no longer evaluated. Its firing alerts end: their sinks are told ` +
        "they are resolved, because the rule was removed. This cannot be undone.",
      confirmLabel: "Delete rule",
      tone: "danger",
      keepLabel: "Keep rule",
    });
    if (!confirmed) return;
    const done = await runAction(
      () => api.send("DELETE", "/alerts/rules/{name}", { params: { name: rule.name } }),
      () => `Deleted rule ${rule.name}`,
    );
    if (done) reload();
  };
  const closeEditor = (saved: boolean) => {
    setEditing(null);
    if (saved) reload();
  };
  const newRule = canUpdate && editing === null && data.sinks.length > 0
    ? html`
      <button type="button" class="btn btn-small btn-primary alerts-new-rule"
        onClick=${() => setEditing("new")}>New rule</button>
    `
    : null;

  return html`
    <${ErrorBanner} error=${error} />
    <${Card} title="Rules" flush=${true} actions=${html`<${Evaluated} data=${data} />${newRule}`}>
      ${editing === null ? null : html`
        <div class="alerts-editor-panel">
          <h3 class="alerts-editor-title">${editing === "new"
            ? "New rule"
            : `Edit ${editing.name}`}</h3>
          <${RuleEditor}
            key=${editing === "new" ? "" : editing.name}
            rule=${editing === "new" ? undefined : editing}
            sinks=${data.sinks}
            onDone=${closeEditor}
          />
        </div>
      `}
      ${data.rules.length === 0 ? html`<p class="empty">No rules yet.</p>` : html`
        <${RuleTable}
          rules=${data.rules}
          open=${open}
          onToggle=${toggle}
          actions=${canUpdate ? { onEdit: setEditing, onDelete: remove } : undefined}
        />
      `}
    <//>
    <div class="alerts-columns">
      <${Card} title="Silences" flush=${true}
        actions=${html`<span class="muted">${
          formatCountOf(data.silences.length, "silence")
        }</span>`}>
        ${canUpdate
          ? html`<${SilenceForm} rules=${data.rules.map((r) => r.name)} onAdded=${reload} />`
          : null}
        <${SilenceList} silences=${data.silences} onRemoved=${canUpdate ? reload : undefined} />
      <//>
      <${Card} title="Sinks" flush=${true}>
        <${SinkList} sinks=${data.sinks} canTest=${canUpdate} />
      <//>
    </div>
    <${Card} title="History" flush=${true}
      actions=${html`<span class="muted">newest ${HISTORY_SHOWN} first</span>`}>
      <${HistoryFilterForm}
        rules=${data.rules.map((r) => r.name)}
        filter=${historyFilter}
        onChange=${setHistoryFilter}
      />
      ${history.data === null
        ? html`<p class="empty">${history.loading ? "Loading…" : "No data."}</p>`
        : html`
          <${HistoryTable}
            entries=${history.data.entries}
            filtered=${Object.keys(historyFilter).length > 0}
          />
        `}
    <//>
  `;
}
