// All Prompts (/prompts) and My Bookmarks (/bookmarks): the prompts the person may read in the active
// organization, searched, filtered and sorted, with the filters in the URL and "Load more" pages; as
// cards or as a compact table (the choice in the URL's `view`, and remembered in this browser for the next
// visit). Where the filters are no side column (below 1024 px) they fold behind a 'Filters' button.
import { useEffect, useState, type ReactNode } from "react";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { Folder, FolderOpen, LayoutGrid, ListFilter, Rows3, Search, X } from "lucide-react";
import {
  PROMPT_MSG, PROMPT_SORTS, PROMPT_SORT_LABELS, PROMPT_VISIBILITIES, PROMPT_VISIBILITY_LABELS, type PromptSort, type PromptVisibility,
} from "@promptly/shared";
import { LoadFailure } from "@/components/layout/load-failure";
import { WorkspaceGate } from "@/components/layout/workspace-gate";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FilterSelect } from "@/components/ui/filter-select";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { useDebouncedValue } from "@/hooks/use-debounced-value";
import { trpc } from "@/lib/trpc";
import { cn } from "@/lib/utils";
import { useWorkspace } from "@/lib/workspace";
import { BulkBar } from "./bulk-bar.tsx";
import { LibraryMenu } from "./library-menu.tsx";
import { PromptGrid, PromptTable, type CardSelection } from "./prompt-card.tsx";

interface ListSearch {
  q?: string;
  teamId?: string;
  tags?: string[];
  folder?: string;
  visibility?: PromptVisibility;
  mine?: boolean;
  archived?: boolean;
  sort?: PromptSort;
  view?: PromptListView;
}

type PromptListView = "cards" | "table";
/** The view chosen last in this browser, used when the URL names none. */
const VIEW_KEY = "promptly.promptListView";
function rememberedView(): PromptListView {
  return localStorage.getItem(VIEW_KEY) === "table" ? "table" : "cards";
}

const SEARCH_DELAY_MS = 300;

/** The URL's filters, and a way to change some of them (undefined removes one). */
function useListSearch() {
  const search = useSearch({ strict: false }) as ListSearch;
  const navigate = useNavigate();
  const update = (change: Partial<ListSearch>) =>
    void navigate({ to: ".", search: (previous: ListSearch) => ({ ...previous, ...change }), replace: true });
  return [search, update] as const;
}

function SearchBox({ value, onChange }: { value: string; onChange: (q: string | undefined) => void }) {
  const [text, setText] = useState(value);
  const settled = useDebouncedValue(text, SEARCH_DELAY_MS);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (settled.trim() !== value) onChange(settled.trim() || undefined);
    // Only a settled change of the text searches: `value` catching up with it must not search again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  return (
    <div className="relative">
      <Label htmlFor="prompt-list-search" className="sr-only">
        Search prompts
      </Label>
      <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input id="prompt-list-search" type="search" placeholder="Search prompts..." className="pl-8" value={text} onChange={(event) => setText(event.target.value)} />
    </div>
  );
}

/** Folders from the names' '/' prefixes, as an indented list; choosing one filters to it. */
function FolderTree({ folders, selected, onSelect }: { folders: { path: string; count: number }[]; selected?: string; onSelect: (folder: string | undefined) => void }) {
  if (!folders.length) return null;
  return (
    <nav aria-label="Folders" className="grid gap-1">
      <p className="text-sm font-medium">Folders</p>
      <ul className="grid gap-0.5 text-sm">
        {folders.map((folder) => {
          const depth = folder.path.split("/").length - 1;
          const active = folder.path === selected;
          const Icon = active ? FolderOpen : Folder;
          return (
            <li key={folder.path}>
              <button
                type="button"
                aria-pressed={active}
                onClick={() => onSelect(active ? undefined : folder.path)}
                className="flex w-full items-center gap-1.5 rounded px-1.5 py-1 text-left hover:bg-accent aria-pressed:bg-accent aria-pressed:font-medium"
                style={{ paddingLeft: `${0.375 + depth * 0.75}rem` }}
              >
                <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                <span className="truncate">{folder.path.split("/").at(-1)}</span>
                <span className="ml-auto text-xs text-muted-foreground">{folder.count}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function TagFilter({ tags, selected, onChange }: { tags: { tag: string; count: number }[]; selected: string[]; onChange: (tags: string[] | undefined) => void }) {
  if (!tags.length) return null;
  const toggle = (tag: string) => {
    const next = selected.includes(tag) ? selected.filter((t) => t !== tag) : [...selected, tag];
    onChange(next.length ? next : undefined);
  };
  return (
    <div className="grid gap-1.5">
      <p className="text-sm font-medium" id="tag-filter-label">
        Tags
      </p>
      <ul className="flex flex-wrap gap-1.5" aria-labelledby="tag-filter-label">
        {tags.slice(0, 30).map(({ tag, count }) => (
          <li key={tag}>
            <button type="button" aria-pressed={selected.includes(tag)} onClick={() => toggle(tag)} className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
              <Badge variant={selected.includes(tag) ? "default" : "secondary"}>
                {tag} <span className="opacity-70">{count}</span>
              </Badge>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Filters({ search, update, bookmarks, open }: { search: ListSearch; update: (change: Partial<ListSearch>) => void; bookmarks: boolean; open: boolean }) {
  const { activeOrganization, teams } = useWorkspace();
  const facets = trpc.prompts.facets.useQuery({ organizationId: activeOrganization!.id, teamId: search.teamId }, { enabled: !!activeOrganization });
  return (
    <aside id="prompt-filters" aria-label="Filters" className={cn("grid content-start gap-4", !open && "max-lg:hidden")}>
      <FilterSelect id="filter-team" label="Team" value={search.teamId} options={teams.map((team) => ({ value: team.id, label: team.name }))} onChange={(teamId) => update({ teamId, folder: undefined })} />
      <FilterSelect
        id="filter-visibility"
        label="Visibility"
        value={search.visibility}
        options={PROMPT_VISIBILITIES.map((value) => ({ value, label: PROMPT_VISIBILITY_LABELS[value] }))}
        onChange={(visibility) => update({ visibility })}
      />
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor="filter-mine">Created by me</Label>
        <Switch id="filter-mine" checked={!!search.mine} onCheckedChange={(mine) => update({ mine: mine || undefined })} />
      </div>
      {!bookmarks && (
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor="filter-archived">Archived</Label>
          <Switch id="filter-archived" checked={!!search.archived} onCheckedChange={(archived) => update({ archived: archived || undefined })} />
        </div>
      )}
      {facets.isError && <LoadFailure className="p-3" title="Tags and folders could not be loaded" error={facets.error} onRetry={facets.refetch} />}
      <TagFilter tags={facets.data?.tags ?? []} selected={search.tags ?? []} onChange={(tags) => update({ tags })} />
      <FolderTree folders={facets.data?.folders ?? []} selected={search.folder} onSelect={(folder) => update({ folder })} />
    </aside>
  );
}

function Results({ search, bookmarks, view }: { search: ListSearch; bookmarks: boolean; view: PromptListView }) {
  const { activeOrganization } = useWorkspace();
  const [chosen, setChosen] = useState<Map<string, string>>(new Map());
  const filtered = Boolean(search.q || search.teamId || search.tags?.length || search.folder || search.visibility || search.mine || search.archived);
  const { view: _view, ...filters } = search;
  const query = trpc.prompts.list.useInfiniteQuery(
    { organizationId: activeOrganization!.id, ...filters, bookmarked: bookmarks || undefined, limit: 24 },
    { getNextPageParam: (page) => page.nextCursor ?? undefined },
  );
  if (query.isPending) return <Skeleton className="h-60 w-full" />;
  if (query.isError) return <LoadFailure title="The prompts could not be loaded" error={query.error} onRetry={query.refetch} />;
  const prompts = query.data.pages.flatMap((page) => page.items);
  if (!prompts.length) {
    const text = filtered ? PROMPT_MSG.noMatches : bookmarks ? PROMPT_MSG.noBookmarks : PROMPT_MSG.noPrompts;
    return <p className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted-foreground">{text}</p>;
  }
  // Bulk work on All Prompts: the chosen prompts (id -> name), kept across pages until cleared.
  const selection: CardSelection | undefined = bookmarks
    ? undefined
    : {
        isSelected: (id) => chosen.has(id),
        toggle: (prompt) =>
          setChosen((previous) => {
            const next = new Map(previous);
            if (next.has(prompt.id)) next.delete(prompt.id);
            else next.set(prompt.id, prompt.name);
            return next;
          }),
      };
  return (
    <div className="grid gap-4">
      <p className="sr-only" aria-live="polite">{`${prompts.length}${query.hasNextPage ? "+" : ""} prompts shown`}</p>
      {selection && chosen.size > 0 && (
        <BulkBar
          selected={[...chosen].map(([id, name]) => ({ id, name }))}
          pageCount={prompts.length}
          onSelectAll={() => setChosen(new Map(prompts.map((prompt) => [prompt.id, prompt.name])))}
          onClear={() => setChosen(new Map())}
        />
      )}
      {view === "table" ? <PromptTable prompts={prompts} selection={selection} /> : <PromptGrid prompts={prompts} selection={selection} />}
      {query.hasNextPage && (
        <Button variant="outline" className="justify-self-center" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          {query.isFetchingNextPage ? "Loading..." : "Load more"}
        </Button>
      )}
    </div>
  );
}

function ActiveFilters({ search, update }: { search: ListSearch; update: (change: Partial<ListSearch>) => void }) {
  const chips: { label: string; clear: Partial<ListSearch> }[] = [];
  if (search.folder) chips.push({ label: `Folder: ${search.folder}`, clear: { folder: undefined } });
  for (const tag of search.tags ?? []) chips.push({ label: `Tag: ${tag}`, clear: { tags: search.tags?.filter((t) => t !== tag) } });
  if (!chips.length) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Active filters">
      {chips.map((chip) => (
        <li key={chip.label}>
          <Button variant="secondary" size="sm" onClick={() => update(chip.clear)} aria-label={`Remove filter ${chip.label}`}>
            {chip.label} <X aria-hidden="true" />
          </Button>
        </li>
      ))}
    </ul>
  );
}

function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {actions}
      </div>
      {children}
    </div>
  );
}

export function PromptListPage({ mode }: { mode: "all" | "bookmarks" }) {
  const title = mode === "bookmarks" ? "My Bookmarks" : "All Prompts";
  return (
    <Page title={title} actions={mode === "all" ? <LibraryMenu /> : undefined}>
      <WorkspaceGate>{() => <PromptList bookmarks={mode === "bookmarks"} />}</WorkspaceGate>
    </Page>
  );
}

/** Cards or a compact table; the choice goes into the URL and is remembered for the next visit. */
function ViewToggle({ view, onChange }: { view: PromptListView; onChange: (view: PromptListView) => void }) {
  const choices = [
    { value: "cards", label: "Cards", icon: LayoutGrid },
    { value: "table", label: "Table", icon: Rows3 },
  ] as const;
  return (
    <div role="group" aria-label="View" className="flex shrink-0 rounded-md border border-input p-0.5">
      {choices.map(({ value, label, icon: Icon }) => (
        <Button key={value} type="button" variant={view === value ? "secondary" : "ghost"} size="sm" aria-pressed={view === value} onClick={() => onChange(value)}>
          <Icon aria-hidden="true" />
          {label}
        </Button>
      ))}
    </div>
  );
}

function PromptList({ bookmarks }: { bookmarks: boolean }) {
  const [search, update] = useListSearch();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const view = search.view ?? rememberedView();
  const chooseView = (next: PromptListView) => {
    localStorage.setItem(VIEW_KEY, next);
    update({ view: next });
  };
  return (
    <>
      {/* Search, sort and the view controls share a row while they fit, and wrap where the sidebar leaves too little room (768 px). */}
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="min-w-0 flex-1 sm:min-w-56">
          <SearchBox value={search.q ?? ""} onChange={(q) => update({ q })} />
        </div>
        <div className="grid gap-1.5 sm:w-56">
          <Label htmlFor="prompt-sort">Sort by</Label>
          <Select value={search.sort ?? (search.q ? "relevance" : "updated")} onValueChange={(sort) => update({ sort: sort === "relevance" ? undefined : (sort as PromptSort) })}>
            <SelectTrigger id="prompt-sort" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {search.q && <SelectItem value="relevance">Relevance</SelectItem>}
              {PROMPT_SORTS.map((sort) => (
                <SelectItem key={sort} value={sort}>
                  {PROMPT_SORT_LABELS[sort]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex items-center justify-between gap-2">
          <Button type="button" variant="outline" className="lg:hidden" aria-expanded={filtersOpen} aria-controls="prompt-filters" onClick={() => setFiltersOpen((open) => !open)}>
            <ListFilter aria-hidden="true" />
            Filters
          </Button>
          <ViewToggle view={view} onChange={chooseView} />
        </div>
      </div>
      <ActiveFilters search={search} update={update} />
      <div className="grid gap-6 lg:grid-cols-[14rem_1fr]">
        <Filters search={search} update={update} bookmarks={bookmarks} open={filtersOpen} />
        <Results search={search} bookmarks={bookmarks} view={view} />
      </div>
    </>
  );
}
