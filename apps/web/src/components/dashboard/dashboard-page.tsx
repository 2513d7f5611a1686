// The dashboard of spec 2 (/, /prompts, /bookmarks, /analytics), on static sample data.
import { BarChart3, Bookmark, FileText, Users, type LucideIcon } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { PromptCard } from "./prompt-card.tsx";
import { SAMPLE_PROMPTS, SAMPLE_STATS, type DashboardStat } from "./sample-data.ts";

const STAT_ICONS: Record<DashboardStat["label"], LucideIcon> = {
  "Total Prompts": FileText,
  "Team Members": Users,
  "Bookmarked Prompts": Bookmark,
  "Average Rating": BarChart3,
};

function StatCard({ stat }: { stat: DashboardStat }) {
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

function Placeholder({ text }: { text: string }) {
  return <p className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted-foreground">{text}</p>;
}

export function DashboardPage() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
      <section aria-label="Statistics" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {SAMPLE_STATS.map((stat) => (
          <StatCard key={stat.label} stat={stat} />
        ))}
      </section>
      <Tabs defaultValue="recent">
        <TabsList>
          <TabsTrigger value="recent">Recent Prompts</TabsTrigger>
          <TabsTrigger value="popular">Popular</TabsTrigger>
          <TabsTrigger value="bookmarked">Bookmarked</TabsTrigger>
        </TabsList>
        <TabsContent value="recent" className="pt-2">
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {SAMPLE_PROMPTS.map((prompt) => (
              <PromptCard key={prompt.id} prompt={prompt} />
            ))}
          </div>
        </TabsContent>
        <TabsContent value="popular" className="pt-2">
          <Placeholder text="Popular prompts will appear here." />
        </TabsContent>
        <TabsContent value="bookmarked" className="pt-2">
          <Placeholder text="Your bookmarked prompts will appear here." />
        </TabsContent>
      </Tabs>
    </div>
  );
}
