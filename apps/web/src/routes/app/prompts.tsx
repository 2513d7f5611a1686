// The prompt library's routes: /prompts and /bookmarks keep their spec roles; a prompt's
// own page is open to anyone who may read it (the server decides); the editor needs a team where
// the person may create prompts.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { PRODUCTION_RANGES, PROMPT_SORTS, PROMPT_VISIBILITIES, RUN_STATUSES } from "@promptly/shared";
import { optionalBoolean, optionalInteger, optionalOneOf, optionalString, optionalStringArray, optionalStringOfLength, optionalUuid, searchOf } from "@/lib/search-params";
import { api } from "@/lib/trpc";
import { followPrompt } from "@/components/prompts/page/follow-prompt";
import { productionMetricsQuery } from "@/components/production/production-search";
import { loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

const PromptPage = lazyRouteComponent(() => import("@/components/prompts/prompt-page"), "PromptPage");
const PromptEditorPage = lazyRouteComponent(() => import("@/components/prompts/prompt-editor-page"), "PromptEditorPage");

/** The list's filters live in the URL. */
const listSearch = searchOf({
  q: optionalString,
  teamId: optionalString,
  tags: optionalStringArray,
  folder: optionalString,
  visibility: optionalOneOf(PROMPT_VISIBILITIES),
  mine: optionalBoolean,
  archived: optionalBoolean,
  sort: optionalOneOf(PROMPT_SORTS),
  /** Cards or the compact table. */
  view: optionalOneOf(["cards", "table"]),
});

export const promptsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/prompts",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  validateSearch: listSearch,
  loader: () => loadWorkspace(),
}).lazy(() => import("./prompt-lists.lazy.tsx").then((module) => module.promptsLazyRoute));

export const bookmarksRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/bookmarks",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  validateSearch: listSearch,
  loader: () => loadWorkspace(),
}).lazy(() => import("./prompt-lists.lazy.tsx").then((module) => module.bookmarksLazyRoute));

/** /prompts/new: the editor for a new prompt (`teamId` preselects a team). */
export const newPromptRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/prompts/new",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  validateSearch: searchOf({ teamId: optionalString }),
  loader: () => loadWorkspace(),
  component: () => <PromptEditorPage />,
});

const promptSearch = searchOf({
  version: optionalInteger(1),
  tab: optionalOneOf(["template", "try", "playground", "history", "compare", "runs", "cases", "evaluations", "comments", "usage", "activity", "production"]),
  /** A comment to open on the Comments tab (links from notifications). */
  comment: optionalUuid,
  from: optionalInteger(1),
  to: optionalInteger(1),
  /** The Runs tab's filters and the run it has open (links to a run). */
  runVersion: optionalInteger(1),
  runModel: optionalStringOfLength(1, 200),
  runStatus: optionalOneOf(RUN_STATUSES),
  run: optionalUuid,
  /** The Evaluations tab's open evaluation, its view, and the two versions it compares. */
  evaluation: optionalUuid,
  evaluationView: optionalOneOf(["results", "compare"]),
  base: optionalInteger(1),
  candidate: optionalInteger(1),
  /** The Production tab's range, environment and model, its open generation, and the two versions it compares. */
  prodRange: optionalOneOf(PRODUCTION_RANGES),
  prodEnv: optionalStringOfLength(1, 100),
  prodModel: optionalStringOfLength(1, 200),
  generation: optionalUuid,
  prodA: optionalInteger(1),
  prodB: optionalInteger(1),
});

/**
 * /prompts/$promptId: the prompt, loaded by the route (version from the URL, default production, else
 * latest). Opening it puts the header on the prompt's organization and team; a preload (a link hovered)
 * changes nothing.
 */
export const promptRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/prompts/$promptId",
  validateSearch: promptSearch,
  loaderDeps: ({ search }) => ({
    version: search.version,
    // The Production tab's figures load with the page when it opens on that tab.
    production: search.tab === "production" ? { prodRange: search.prodRange, prodEnv: search.prodEnv, prodModel: search.prodModel } : undefined,
  }),
  loader: async ({ params, deps, cause }) => {
    const [, prompt] = await Promise.all([
      loadWorkspace(),
      api.prompts.get.ensureData({ id: params.promptId, version: deps.version }).catch(() => undefined),
      deps.production && api.production.metrics.ensureData(productionMetricsQuery(params.promptId, deps.production)).catch(() => undefined),
    ]);
    if (prompt && cause === "enter" && (await followPrompt(prompt))) await loadWorkspace();
  },
  component: () => <PromptPage />,
});

/** /prompts/$promptId/new-version: the editor, filled with the prompt's latest version. */
export const newVersionRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/prompts/$promptId/new-version",
  /** `draft`: the playground's edited body and model settings to start from (kept in the tab's session storage under this key). */
  validateSearch: searchOf({ draft: optionalStringOfLength(0, 100) }),
  loader: async ({ params }) => {
    await Promise.all([loadWorkspace(), api.prompts.get.ensureData({ id: params.promptId, label: "latest" }).catch(() => undefined)]);
  },
  component: () => <PromptEditorPage />,
});
