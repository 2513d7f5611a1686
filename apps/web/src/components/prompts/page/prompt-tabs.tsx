// The prompt's tabs, kept in the `tab` search param: Template, Try it, Playground (for those who may
// run the prompt), History, Compare, Runs, Test cases, Evaluations, Comments, Usage, Activity.
import { CommentsTab } from "@/components/comments/comments-tab";
import { EvaluationsTab } from "@/components/evaluations/evaluations-tab";
import { TestCasesTab } from "@/components/evaluations/test-cases-tab";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ActivityTab } from "./activity-tab.tsx";
import { CompareTab } from "./compare-tab.tsx";
import { HistoryTab } from "./history-tab.tsx";
import { PlaygroundTab } from "./playground-tab.tsx";
import { usePromptSearch, type PromptTab } from "./route-api.ts";
import { RunsTab } from "./runs-tab.tsx";
import { TemplateTab } from "./template-tab.tsx";
import { TryTab } from "./try-tab.tsx";
import { UsageTab } from "./usage-tab.tsx";
import type { PromptDetail } from "./types.ts";

const TABS: { value: PromptTab; label: string }[] = [
  { value: "template", label: "Template" },
  { value: "try", label: "Try it" },
  { value: "playground", label: "Playground" },
  { value: "history", label: "History" },
  { value: "compare", label: "Compare" },
  { value: "runs", label: "Runs" },
  { value: "cases", label: "Test cases" },
  { value: "evaluations", label: "Evaluations" },
  { value: "comments", label: "Comments" },
  { value: "usage", label: "Usage" },
  { value: "activity", label: "Activity" },
];

export function PromptTabs({ prompt }: { prompt: PromptDetail }) {
  const [search, setSearch] = usePromptSearch();
  const version = prompt.version;
  // The same rule the run procedure applies (prompt.run): the tab is not offered to those it would refuse.
  const tabs = TABS.filter((tab) => tab.value !== "playground" || prompt.can.run);
  const current = tabs.some((tab) => tab.value === search.tab) ? search.tab : undefined;
  return (
    <Tabs value={current ?? "template"} onValueChange={(tab) => setSearch({ tab: tab as PromptTab }, { replace: true })} className="min-w-0 gap-4">
      <TabsList className="max-w-full justify-start overflow-x-auto">
        {tabs.map((tab) => (
          <TabsTrigger key={tab.value} value={tab.value}>
            {tab.label}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value="template" className="min-w-0">
        <TemplateTab prompt={prompt} />
      </TabsContent>
      <TabsContent value="try" className="min-w-0">
        <TryTab key={version.version} prompt={prompt} />
      </TabsContent>
      {prompt.can.run && (
        <TabsContent value="playground" className="min-w-0">
          <PlaygroundTab key={version.version} prompt={prompt} />
        </TabsContent>
      )}
      <TabsContent value="history" className="min-w-0">
        <HistoryTab prompt={prompt} />
      </TabsContent>
      <TabsContent value="compare" className="min-w-0">
        <CompareTab prompt={prompt} />
      </TabsContent>
      <TabsContent value="runs" className="min-w-0">
        <RunsTab prompt={prompt} />
      </TabsContent>
      <TabsContent value="cases" className="min-w-0">
        <TestCasesTab prompt={prompt} />
      </TabsContent>
      <TabsContent value="evaluations" className="min-w-0">
        <EvaluationsTab prompt={prompt} />
      </TabsContent>
      <TabsContent value="comments" className="min-w-0">
        <CommentsTab prompt={prompt} />
      </TabsContent>
      <TabsContent value="usage" className="min-w-0">
        <UsageTab prompt={prompt} />
      </TabsContent>
      <TabsContent value="activity" className="min-w-0">
        <ActivityTab prompt={prompt} />
      </TabsContent>
    </Tabs>
  );
}
