import { createLazyRoute } from "@tanstack/react-router";
import { PageGuard } from "@/components/guards/role-guard";
import { TeamsPage } from "@/components/teams/teams-page";

export const teamsLazyRoute = createLazyRoute("/app/teams")({
  component: () => (
    <PageGuard page="page.teams">
      <TeamsPage />
    </PageGuard>
  ),
});
