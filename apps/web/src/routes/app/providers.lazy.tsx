import { createLazyRoute } from "@tanstack/react-router";
import { PageGuard } from "@/components/guards/role-guard";
import { ProvidersPage } from "@/components/providers/providers-page";

export const providersLazyRoute = createLazyRoute("/app/providers")({
  component: () => (
    <PageGuard page="page.providers">
      <ProvidersPage />
    </PageGuard>
  ),
});
