/**
 * Every page of the board, declared once: the path it answers, the
 * component that draws it, its title, and, for a page in the sidebar, its
 * label, icon and digit shortcut. The app matches paths and renders pages
 * from here; the sidebar and the keyboard shortcuts get their entries from
 * here. A new page is one entry in {@link PAGES}, one lazy import (each page
 * is its own chunk) and its folder.
 *
 * @module
 */
import type { ComponentChildren, ComponentType } from "preact";
import { FiringCount } from "../components/firing_count.ts";
import type { IconName } from "../components/icon.ts";
import type { NavItem } from "../components/sidebar.ts";
import { lazyPage } from "../lib/lazy_page.ts";
import { may, mayReadHistory } from "../lib/permissions.ts";
import type { BoardConfig } from "../lib/types.ts";
import { matchPath, segmentsOf } from "../lib/router.ts";
import { NotFoundPage } from "./not_found.ts";
import { OverviewPage } from "./overview/index.ts";
import { TasksPage } from "./tasks/index.ts";

/*
 * Each page but the landing ones (the overview, the task list) is its own
 * chunk, loaded when first shown (see lazyPage).
 */
const AlertsPage = lazyPage(() => import("./alerts/index.ts").then((m) => m.AlertsPage));
const ActivityPage = lazyPage(() => import("./activity/index.ts").then((m) => m.ActivityPage));
const DlqPage = lazyPage(() => import("./dlq/index.ts").then((m) => m.DlqPage));
const HistoryPage = lazyPage(() => import("./history/index.ts").then((m) => m.HistoryPage));
const JobPage = lazyPage(() => import("./job/index.ts").then((m) => m.JobPage));
const MigrationsPage = lazyPage(() =>
  import("./migrations/index.ts").then((m) => m.MigrationsPage)
);
const ReferencePage = lazyPage(() => import("./reference/index.ts").then((m) => m.ReferencePage));
const SchedulesPage = lazyPage(() => import("./schedules/index.ts").then((m) => m.SchedulesPage));
const TaskPage = lazyPage(() => import("./task/index.ts").then((m) => m.TaskPage));
const WorkflowPage = lazyPage(() => import("./workflow/index.ts").then((m) => m.WorkflowPage));
const WorkflowsPage = lazyPage(() => import("./workflows/index.ts").then((m) => m.WorkflowsPage));

/** The names of a path pattern's `:name` segments: `/tasks/:task` → `"task"`. */
type ParamNames<P extends string> = P extends `${infer Head}/${infer Tail}`
  ? ParamNames<Head> | ParamNames<Tail>
  : P extends `:${infer Name}` ? Name
  : never;

/** The decoded parameters of a path pattern: `/jobs/:id` → `{ id: string }`. */
export type Params<P extends string> = { [Name in ParamNames<P>]: string };

/** A page's component: a function of its parameters. */
export type PageComponent<Props> = (props: Props) => ComponentChildren;

/** One page of the board. */
export interface PageEntry<P extends string = string> {
  /** Its path below the base: literal and `:name` segments (`/tasks/:task`). */
  path: P;
  /**
   * The top bar's title; the tab's too for a page without parameters (one
   * with parameters names its tab after what it shows, with `usePageTitle`).
   */
  title: string;
  /** Draws the page, given the decoded parameters as props. */
  component: PageComponent<Params<P>>;
  /**
   * Its link in the sidebar (labelled with its title by default), the digit
   * key opening it, what shows after its label (a count), and whether the
   * board and the user's permissions have the page read anything (`shown`;
   * always when left out).
   */
  nav?: {
    label?: string;
    icon: IconName;
    key?: string;
    badge?: ComponentType;
    shown?: (config: NavConfig) => boolean;
  };
  /**
   * The actions its controls do: when the user's role hides some, one line
   * above the page says which role they need (see `RoleNote`).
   */
  controls?: readonly string[];
  /**
   * The page whose sidebar link it marks, when that is not the first page
   * whose path begins with the same segment (a job, `/jobs/:id`, marks Tasks).
   */
  under?: string;
}

/** What of `GET /config` decides which links the sidebar shows. */
type NavConfig = Pick<BoardConfig, "allowed" | "history">;

/** An entry, its component checked against its path's parameters. */
const page = <P extends string>(entry: PageEntry<P>): PageEntry<P> => entry;

/** The pages in sidebar order; a path shows the first page whose pattern it matches. */
export const PAGES = {
  overview: page({
    path: "/",
    title: "Overview",
    component: OverviewPage,
    nav: { icon: "overview", key: "1" },
  }),
  tasks: page({
    path: "/tasks",
    title: "Tasks",
    component: TasksPage,
    nav: { icon: "tasks", key: "2" },
  }),
  task: page({
    path: "/tasks/:task",
    title: "Task",
    component: TaskPage,
    controls: [
      "bulk.start",
      "task.retry-all",
      "task.clean",
      "job.dispatch",
      "export",
      "payload.read",
    ],
  }),
  job: page({
    path: "/jobs/:id",
    title: "Job",
    component: JobPage,
    under: "tasks",
    controls: ["job.retry", "job.retry-edited", "job.rerun", "job.cancel", "payload.read"],
  }),
  workflows: page({
    path: "/workflows",
    title: "Workflows",
    component: WorkflowsPage,
    nav: { icon: "workflows", key: "3" },
  }),
  workflow: page({
    path: "/workflows/:id",
    title: "Workflow",
    component: WorkflowPage,
    controls: ["workflow.cancel"],
  }),
  schedules: page({
    path: "/schedules",
    title: "Schedules",
    component: SchedulesPage,
    nav: { icon: "schedules", key: "4" },
    controls: [
      "schedule.pause",
      "schedule.resume",
      "schedule.trigger",
      "schedule.update",
      "schedule.remove",
    ],
  }),
  dlq: page({
    path: "/dlq",
    title: "Dead-letter queue",
    component: DlqPage,
    nav: { label: "DLQ", icon: "dlq", key: "5" },
    controls: ["dlq.retry", "dlq.retry-all", "export"],
  }),
  alerts: page({
    path: "/alerts",
    title: "Alerts",
    component: AlertsPage,
    nav: { icon: "alerts", key: "6", badge: FiringCount },
    controls: ["alerts.update"],
  }),
  history: page({
    path: "/history",
    title: "History",
    component: HistoryPage,
    nav: { icon: "history", shown: mayReadHistory },
    controls: ["export"],
  }),
  migrations: page({
    path: "/migrations",
    title: "Migrations",
    component: MigrationsPage,
    nav: { icon: "migrations" },
  }),
  activity: page({
    path: "/activity",
    title: "Activity",
    component: ActivityPage,
    nav: { icon: "activity", shown: (config) => may(config, "audit.read") },
  }),
  reference: page({
    path: "/reference",
    title: "API reference",
    component: ReferencePage,
    nav: { label: "API", icon: "reference" },
  }),
};

/** The name of a page (`overview`, `task`, …). */
export type PageName = keyof typeof PAGES;

/** What a path shows: a page and its decoded parameters (`{ page: "task", task: "email" }`). */
export type Route =
  | { [Name in PageName]: { page: Name } & Params<(typeof PAGES)[Name]["path"]> }[PageName]
  | { page: "not-found" };

/** What a path no page answers shows. */
export const NOT_FOUND: Omit<PageEntry<"">, "path"> = {
  title: "Not found",
  component: NotFoundPage,
};

const NAMES = Object.keys(PAGES) as PageName[];

/** Matches a path below the base (`/tasks/email`) to its route. */
export function matchRoute(path: string): Route {
  for (const name of NAMES) {
    const params = matchPath(PAGES[name].path, path);
    if (params) return { page: name, ...params } as Route;
  }
  return { page: "not-found" };
}

/** A sidebar link and the page it opens. */
export interface NavEntry extends NavItem {
  page: PageName;
  /** The digit key that opens the page. */
  key?: string;
  /** Whether the link shows, by the board's config (see {@link navFor}). */
  shown?: (config: NavConfig) => boolean;
}

/** The sidebar's links, in order. */
export const NAV: readonly NavEntry[] = NAMES.flatMap((name) => {
  const { path, title, nav } = PAGES[name];
  return nav ? [{ page: name, path, label: title, ...nav }] : [];
});

/**
 * The sidebar's links the config shows (`shown`): no link to a page the
 * board would refuse the user, or that has nothing to read (the History
 * page of a board that records none).
 */
export function navFor(config: NavConfig): readonly NavEntry[] {
  return NAV.filter((entry) => entry.shown?.(config) ?? true);
}

/**
 * The sidebar link a path marks: that of the first page whose path begins
 * with the same segment (`/tasks/email` and `/dlq/x` mark Tasks and DLQ),
 * or of the page that one is `under`; else the first link.
 */
export function navEntryFor(path: string): NavEntry {
  const [first] = segmentsOf(path);
  const owner = NAMES.find((name) => segmentsOf(PAGES[name].path)[0] === first);
  const marked = owner && (PAGES[owner].under ?? owner);
  return NAV.find((entry) => entry.page === marked) ?? NAV[0];
}
