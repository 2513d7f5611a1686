// The dashboard (/): four figures and three tabs of prompts, from the rows
// the person may read in the active organization (and its active team).
import type { ReactNode } from "react";
import { BarChart3, Bookmark, FileText, Users, type LucideIcon } from "lucide-react";
import { PROMPT_MSG } from "@promptly/shared";
import { PromptGrid, type PromptCardData } from "@/components/prompts/prompt-card";
import { LoadFailure } from "@/components/layout/load-failure";
import { WorkspaceGate } from "@/components/layout/workspace-gate";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { trpc } from "@/lib/trpc";
import { useWorkspace } from "@/lib/workspace";
import { dashboardReads } from "./dashboard-reads.ts";

interface Stat {
  label: "Total Prompts" | "Team Members" | "Bookmarked Prompts" | "Average Rating";
  value: string;
  note: string;
}

const STAT_ICONS: Record<Stat["label"], LucideIcon> = {
  "Total Prompts": FileText,
  "Team Members": Users,
  "Bookmarked Prompts": Bookmark,
  "Average Rating": BarChart3,
};

function StatCard({ stat }: { stat: Stat }) {
  const Icon = STAT_ICONS[stat.label];
  return (
    <Card data-testid="stat-card" className="gap-2">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle className="text-sm font-medium">{stat.label}</CardTitle>
        <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold">{stat.value}</p>
        <p className="text-xs text-muted-foreground">{stat.note}</p>
      </CardContent>
    </Card>
  );
}

const thisMonth = (count: number) => `+${count} this month`;
const ratings = (count: number) => `From ${count} ${count === 1 ? "rating" : "ratings"}`;

function Stats({ organizationId, teamId }: { organizationId: string; teamId?: string }) {
  const { data, isPending, isError, error, refetch } = trpc.dashboard.stats.useQuery(dashboardReads.stats(organizationId, teamId));
  if (isPending) return <Skeleton className="h-28 w-full sm:col-span-2 lg:col-span-4" />;
  if (isError) return <LoadFailure className="sm:col-span-2 lg:col-span-4" title="The figures could not be loaded" error={error} onRetry={refetch} />;
  const stats: Stat[] = [
    { label: "Total Prompts", value: String(data.totalPrompts), note: thisMonth(data.promptsThisMonth) },
    {
      label: "Team Members",
      value: data.teamMembers === null ? "–" : String(data.teamMembers),
      note: data.teamMembersThisMonth === null ? "No active team" : thisMonth(data.teamMembersThisMonth),
    },
    { label: "Bookmarked Prompts", value: String(data.bookmarks), note: thisMonth(data.bookmarksThisMonth) },
    { label: "Average Rating", value: data.averageRating === null ? "–" : data.averageRating.toFixed(1), note: ratings(data.ratingCount) },
  ];
  return stats.map((stat) => <StatCard key={stat.label} stat={stat} />);
}

function Placeholder({ text }: { text: string }) {
  return <p className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted-foreground">{text}</p>;
}

interface PromptTabQuery {
  data?: PromptCardData[];
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch(): Promise<unknown>;
}

function PromptTab({ query, empty }: { query: PromptTabQuery; empty: string }): ReactNode {
  if (query.isPending) return <Skeleton className="h-40 w-full" />;
  if (query.isError) return <LoadFailure title="These prompts could not be loaded" error={query.error} onRetry={query.refetch} />;
  if (!query.data?.length) return <Placeholder text={empty} />;
  return <PromptGrid prompts={query.data} />;
}

function PromptTabs({ organizationId }: { organizationId: string }) {
  const recent = trpc.prompts.list.useQuery(dashboardReads.recent(organizationId));
  const popular = trpc.dashboard.popular.useQuery(dashboardReads.popular(organizationId));
  const bookmarked = trpc.prompts.list.useQuery(dashboardReads.bookmarked(organizationId));
  return (
    <Tabs defaultValue="recent">
      <TabsList>
        <TabsTrigger value="recent">Recent Prompts</TabsTrigger>
        <TabsTrigger value="popular">Popular</TabsTrigger>
        <TabsTrigger value="bookmarked">Bookmarked</TabsTrigger>
      </TabsList>
      <TabsContent value="recent" className="pt-2">
        <PromptTab query={{ ...recent, data: recent.data?.items }} empty={PROMPT_MSG.recentEmpty} />
      </TabsContent>
      <TabsContent value="popular" className="pt-2">
        <PromptTab query={popular} empty={PROMPT_MSG.popularEmpty} />
      </TabsContent>
      <TabsContent value="bookmarked" className="pt-2">
        <PromptTab query={{ ...bookmarked, data: bookmarked.data?.items }} empty={PROMPT_MSG.bookmarkedEmpty} />
      </TabsContent>
    </Tabs>
  );
}

export function DashboardPage() {
  const { activeTeam } = useWorkspace();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
      <WorkspaceGate>
        {(organization) => (
          <>
            <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <Stats organizationId={organization.id} teamId={activeTeam?.id} />
            </section>
            <PromptTabs organizationId={organization.id} />
          </>
        )}
      </WorkspaceGate>
    </div>
  );
}
