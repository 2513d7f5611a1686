// What the dashboard reads, in one place: the page asks these queries, and its route's loader starts
// them as soon as the active organization (and team) are known, before the page's code has loaded.
import { api } from "@/lib/trpc";
import type { Place } from "@/lib/workspace";

export const dashboardReads = {
  stats: (organizationId: string, teamId: string | undefined) => ({ organizationId, teamId }),
  recent: (organizationId: string) => ({ organizationId, limit: 6 }),
  popular: (organizationId: string) => ({ organizationId }),
  bookmarked: (organizationId: string) => ({ organizationId, bookmarked: true, limit: 6 }),
};

/**
 * Starts the dashboard's reads into the query cache; their failures are left to the page. Resolves
 * once their request is on its way: the batch is sent from a timer, which would otherwise wait for the
 * first render of the layout and the page (about a hundred milliseconds of main thread on a slow
 * machine) instead of running beside it.
 */
export async function prefetchDashboard({ organization, team }: Place): Promise<void> {
  if (!organization) return;
  const organizationId = organization.id;
  void api.dashboard.stats.prefetch(dashboardReads.stats(organizationId, team?.id));
  void api.prompts.list.prefetch(dashboardReads.recent(organizationId));
  void api.dashboard.popular.prefetch(dashboardReads.popular(organizationId));
  void api.prompts.list.prefetch(dashboardReads.bookmarked(organizationId));
  await new Promise((resolve) => setTimeout(resolve, 0));
}
