// The prompt library's routes: /prompts and /bookmarks keep their spec roles; a prompt's
// own page is open to anyone who may read it (the server decides); the editor needs a team where
// the person may create prompts.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { z } from "zod";
import { PROMPT_SORTS, PROMPT_VISIBILITIES, RUN_STATUSES } from "@promptly/shared";
import { PageGuard } from "@/components/guards/role-guard";
import { api } from "@/lib/trpc";
import { loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

const PromptListPage = lazyRouteComponent(() => import("@/components/prompts/prompt-list-page"), "PromptListPage");
const PromptPage = lazyRouteComponent(() => import("@/components/prompts/prompt-page"), "PromptPage");
const PromptEditorPage = lazyRouteComponent(() => import("@/components/prompts/prompt-editor-page"), "PromptEditorPage");

/** The list's filters live in the URL. */
const listSearch = z.object({
  q: z.string().optional().catch(undefined),
  teamId: z.string().optional().catch(undefined),
  tags: z.array(z.string()).optional().catch(undefined),
  folder: z.string().optional().catch(undefined),
  visibility: z.enum(PROMPT_VISIBILITIES).optional().catch(undefined),
  mine: z.boolean().optional().catch(undefined),
  archived: z.boolean().optional().catch(undefined),
  sort: z.enum(PROMPT_SORTS).optional().catch(undefined),
  /** Cards or the compact table. */
  view: z.enum(["cards", "table"]).optional().catch(undefined),
});

export const promptsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/prompts",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  validateSearch: listSearch,
  loader: () => loadWorkspace(),
  component: () => (
    <PageGuard page="page.prompts">
      <PromptListPage mode="all" />
    </PageGuard>
  ),
});

export const bookmarksRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/bookmarks",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  validateSearch: listSearch,
  loader: () => loadWorkspace(),
  component: () => (
    <PageGuard page="page.bookmarks">
      <PromptListPage mode="bookmarks" />
    </PageGuard>
  ),
});

/** /prompts/new: the editor for a new prompt (`teamId` preselects a team). */
export const newPromptRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/prompts/new",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  validateSearch: z.object({ teamId: z.string().optional().catch(undefined) }),
  loader: () => loadWorkspace(),
  component: () => <PromptEditorPage />,
});

const promptSearch = z.object({
  version: z.number().int().min(1).optional().catch(undefined),
  tab: z.enum(["template", "try", "playground", "history", "compare", "runs", "cases", "evaluations", "comments", "usage", "activity"]).optional().catch(undefined),
  /** A comment to open on the Comments tab (links from notifications). */
  comment: z.uuid().optional().catch(undefined),
  from: z.number().int().min(1).optional().catch(undefined),
  to: z.number().int().min(1).optional().catch(undefined),
  /** The Runs tab's filters and the run it has open (links to a run). */
  runVersion: z.number().int().min(1).optional().catch(undefined),
  runModel: z.string().min(1).max(200).optional().catch(undefined),
  runStatus: z.enum(RUN_STATUSES).optional().catch(undefined),
  run: z.uuid().optional().catch(undefined),
  /** The Evaluations tab's open evaluation, its view, and the two versions it compares. */
  evaluation: z.uuid().optional().catch(undefined),
  evaluationView: z.enum(["results", "compare"]).optional().catch(undefined),
  base: z.number().int().min(1).optional().catch(undefined),
  candidate: z.number().int().min(1).optional().catch(undefined),
});

/** /prompts/$promptId: the prompt, loaded by the route (version from the URL, default production, else latest). */
export const promptRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/prompts/$promptId",
  validateSearch: promptSearch,
  loaderDeps: ({ search }) => ({ version: search.version }),
  loader: async ({ params, deps }) => {
    await Promise.all([
      loadWorkspace(),
      api.prompts.get.ensureData({ id: params.promptId, version: deps.version }).catch(() => undefined),
    ]);
  },
  component: () => <PromptPage />,
});

/** /prompts/$promptId/new-version: the editor, filled with the prompt's latest version. */
export const newVersionRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/prompts/$promptId/new-version",
  /** `draft`: the playground's edited body and model settings to start from (kept in the tab's session storage under this key). */
  validateSearch: z.object({ draft: z.string().max(100).optional().catch(undefined) }),
  loader: async ({ params }) => {
    await Promise.all([loadWorkspace(), api.prompts.get.ensureData({ id: params.promptId, label: "latest" }).catch(() => undefined)]);
  },
  component: () => <PromptEditorPage />,
});
