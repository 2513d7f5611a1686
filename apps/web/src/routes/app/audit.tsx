import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { loadWorkspace } from "@/lib/workspace";
import { appLayoutRoute } from "../layouts.tsx";

const AuditLogPage = lazyRouteComponent(() => import("@/components/audit/audit-log-page"), "AuditLogPage");

/** /audit: the active organization's audit log, for its admins and super users; the server refuses others too. */
export const auditRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/audit",
  // The page says itself when the organizations fail to load (no toast repeats it).
  staticData: { showsOrganizationsFailure: true },
  loader: () => loadWorkspace(),
  component: AuditLogPage,
});
