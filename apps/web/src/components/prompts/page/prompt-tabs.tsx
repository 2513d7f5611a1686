// The prompt's tabs, grouped as the work on a prompt goes, so the loop reads at a glance: Write & try
// (Template, Try it, and the Playground for those who may run the prompt), Evaluate (Test cases,
// Evaluations, Runs), Versions (History, Compare, Activity), Comments, Usage, Production. The URL's `tab` keeps the
// open tab itself (the values links have always used); the group follows from it. Every group shows
// at 375 px: the list wraps into rows of three there, which leaves room for a sixth group.
import { useRef, type ComponentType, type ReactNode } from "react";
import { ChartColumn, FlaskConical, Gauge, History, MessagesSquare, PenLine } from "lucide-react";
import { CommentsTab } from "@/components/comments/comments-tab";
import { EvaluationsTab } from "@/components/evaluations/evaluations-tab";
import { ProductionTab } from "@/components/production/production-tab";
import { TestCasesTab } from "@/components/evaluations/test-cases-tab";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ActivityTab } from "./activity-tab.tsx";
import { CompareTab } from "./compare-tab.tsx";
import { HistoryTab } from "./history-tab.tsx";
import { PlaygroundTab } from "./playground-tab.tsx";
import { usePromptSearch, type PromptSearch, type PromptTab } from "./route-api.ts";
import { RunsTab } from "./runs-tab.tsx";
import { TemplateTab } from "./template-tab.tsx";
import { TryTab } from "./try-tab.tsx";
import { UsageTab } from "./usage-tab.tsx";
import type { PromptDetail } from "./types.ts";

interface TabEntry {
  value: PromptTab;
  label: string;
  render(prompt: PromptDetail): ReactNode;
}

interface Group {
  value: string;
  label: string;
  icon: ComponentType<{ "aria-hidden"?: boolean | "true"; className?: string }>;
  tabs: TabEntry[];
}

// Keyed by version: a tab with a form starts again from the version shown.
const GROUPS: Group[] = [
  {
    value: "write",
    label: "Write & try",
    icon: PenLine,
    tabs: [
      { value: "template", label: "Template", render: (prompt) => <TemplateTab prompt={prompt} /> },
      { value: "try", label: "Try it", render: (prompt) => <TryTab key={prompt.version.version} prompt={prompt} /> },
      { value: "playground", label: "Playground", render: (prompt) => <PlaygroundTab key={prompt.version.version} prompt={prompt} /> },
    ],
  },
  {
    value: "evaluate",
    label: "Evaluate",
    icon: FlaskConical,
    tabs: [
      { value: "cases", label: "Test cases", render: (prompt) => <TestCasesTab prompt={prompt} /> },
      { value: "evaluations", label: "Evaluations", render: (prompt) => <EvaluationsTab prompt={prompt} /> },
      { value: "runs", label: "Runs", render: (prompt) => <RunsTab prompt={prompt} /> },
    ],
  },
  {
    value: "versions",
    label: "Versions",
    icon: History,
    tabs: [
      { value: "history", label: "History", render: (prompt) => <HistoryTab prompt={prompt} /> },
      { value: "compare", label: "Compare", render: (prompt) => <CompareTab prompt={prompt} /> },
      { value: "activity", label: "Activity", render: (prompt) => <ActivityTab prompt={prompt} /> },
    ],
  },
  { value: "comments", label: "Comments", icon: MessagesSquare, tabs: [{ value: "comments", label: "Comments", render: (prompt) => <CommentsTab prompt={prompt} /> }] },
  { value: "usage", label: "Usage", icon: ChartColumn, tabs: [{ value: "usage", label: "Usage", render: (prompt) => <UsageTab prompt={prompt} /> }] },
  { value: "production", label: "Production", icon: Gauge, tabs: [{ value: "production", label: "Production", render: (prompt) => <ProductionTab prompt={prompt} /> }] },
];

/**
 * The tab a link means when it names none: the one its other parameters belong to (a comment, a run,
 * an evaluation, two versions to compare), else Template.
 */
function impliedTab(search: PromptSearch): PromptTab {
  if (search.comment) return "comments";
  if (search.run || search.runVersion || search.runModel || search.runStatus) return "runs";
  if (search.evaluation) return "evaluations";
  if (search.from || search.to) return "compare";
  if (search.generation || search.prodRange || search.prodEnv || search.prodModel) return "production";
  return "template";
}

/** The groups and tabs offered to this reader: the Playground by the rule the run procedure applies. */
function groupsFor(prompt: PromptDetail): Group[] {
  return GROUPS.map((group) => ({ ...group, tabs: group.tabs.filter((tab) => tab.value !== "playground" || prompt.can.run) }));
}

const sectionTrigger = "gap-1.5 px-2 sm:px-3";
// The tabs inside a group: underlined, so they read as a level below the groups (the list's line is
// an inset shadow: a border would need the tabs to overlap it, and the scrolling list clips that).
const subList = "h-auto w-full justify-start gap-1 overflow-x-auto rounded-none bg-transparent p-0 shadow-[inset_0_-1px_0_var(--color-border)]";
const subTrigger =
  "h-9 flex-none rounded-none border-0 border-b-2 border-transparent px-3 data-[state=active]:border-foreground data-[state=active]:bg-transparent data-[state=active]:shadow-none";

export function PromptTabs({ prompt }: { prompt: PromptDetail }) {
  const [search, setSearch] = usePromptSearch();
  const groups = groupsFor(prompt);
  const asked = search.tab ?? impliedTab(search);
  const openGroup = groups.find((group) => group.tabs.some((tab) => tab.value === asked)) ?? groups[0]!;
  const openTab = openGroup.tabs.some((tab) => tab.value === asked) ? asked : openGroup.tabs[0]!.value;
  // The tab last open in each group, so going back to a group goes back to where one was.
  const lastOpen = useRef(new Map<string, PromptTab>());
  lastOpen.current.set(openGroup.value, openTab);
  const show = (tab: PromptTab) => setSearch({ tab }, { replace: true });

  return (
    <Tabs
      value={openGroup.value}
      onValueChange={(value) => {
        const group = groups.find((entry) => entry.value === value);
        if (group) show(lastOpen.current.get(group.value) ?? group.tabs[0]!.value);
      }}
      className="min-w-0 gap-4"
    >
      <TabsList aria-label="Prompt sections" className="grid h-auto w-full grid-cols-3 gap-1 sm:flex sm:w-fit sm:max-w-full sm:flex-wrap sm:justify-start">
        {groups.map((group) => (
          <TabsTrigger key={group.value} value={group.value} className={sectionTrigger}>
            <group.icon aria-hidden="true" className="size-4 shrink-0" />
            {group.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {groups.map((group) => (
        <TabsContent key={group.value} value={group.value} className="min-w-0">
          {group.tabs.length === 1 ? (
            group.tabs[0]!.render(prompt)
          ) : (
            <Tabs value={openTab} onValueChange={(tab) => show(tab as PromptTab)} className="min-w-0 gap-4">
              <TabsList aria-label={group.label} className={subList}>
                {group.tabs.map((tab) => (
                  <TabsTrigger key={tab.value} value={tab.value} className={subTrigger}>
                    {tab.label}
                  </TabsTrigger>
                ))}
              </TabsList>
              {group.tabs.map((tab) => (
                <TabsContent key={tab.value} value={tab.value} className="min-w-0">
                  {tab.render(prompt)}
                </TabsContent>
              ))}
            </Tabs>
          )}
        </TabsContent>
      ))}
    </Tabs>
  );
}
