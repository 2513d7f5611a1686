import { createLazyRoute } from "@tanstack/react-router";
import { PageGuard } from "@/components/guards/role-guard";
import { PromptListPage } from "@/components/prompts/prompt-list-page";

export const promptsLazyRoute = createLazyRoute("/app/prompts")({
  component: () => (
    <PageGuard page="page.prompts">
      <PromptListPage mode="all" />
    </PageGuard>
  ),
});

export const bookmarksLazyRoute = createLazyRoute("/app/bookmarks")({
  component: () => (
    <PageGuard page="page.bookmarks">
      <PromptListPage mode="bookmarks" />
    </PageGuard>
  ),
});
