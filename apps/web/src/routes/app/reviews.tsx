// A change request's page: open to anyone who may read its prompt (the server decides);
// notifications link here.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { api } from "@/lib/trpc";
import { loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

const ChangeRequestPage = lazyRouteComponent(() => import("@/components/reviews/change-request-page"), "ChangeRequestPage");

export const changeRequestRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/reviews/$changeRequestId",
  loader: async ({ params }) => {
    await Promise.all([loadWorkspace(), api.changeRequests.get.ensureData({ id: params.changeRequestId }).catch(() => undefined)]);
  },
  component: () => <ChangeRequestPage />,
});
