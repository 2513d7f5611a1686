// 'Search prompts...' in the header: the top 8 matches as you type (debounced), arrow keys
// to choose, Enter to open the chosen prompt, or the full results on /prompts?q= for those who may open
// that page. `/` or Ctrl/Cmd+K focuses it. A combobox with a listbox of results (WAI-ARIA 1.2).
// Below 1024 px (the header's `lg` breakpoint) the box waits behind an icon named 'Search prompts' and
// opens over the header; Escape, the close button or leaving it puts it away again.
import { useEffect, useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useNavigate } from "@tanstack/react-router";
import { Search, X } from "lucide-react";
import { can } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useDebouncedValue } from "@/hooks/use-debounced-value";
import { useMe } from "@/hooks/use-me";
import { trpc } from "@/lib/trpc";
import { cn } from "@/lib/utils";
import { usePageAccess, useWorkspace } from "@/lib/workspace";

const DELAY_MS = 250;
const RESULTS = 8;

/** `/` (outside text fields) or Ctrl/Cmd+K opens and focuses the search. */
function useFocusShortcut(focusSearch: () => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = !!target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
      const shortcut = (event.key === "k" && (event.metaKey || event.ctrlKey)) || (event.key === "/" && !typing && !event.metaKey && !event.ctrlKey);
      if (!shortcut) return;
      event.preventDefault();
      focusSearch();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [focusSearch]);
}

export function HeaderSearch() {
  const { activeOrganization } = useWorkspace();
  const { data: me } = useMe();
  const pageAccess = usePageAccess(me);
  const navigate = useNavigate();
  const inputRef = useRef<HTMLInputElement>(null);
  const iconRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Below 1024 px: the box is open over the header (from 1024 px it is always there).
  const [expanded, setExpanded] = useState(false);
  const q = useDebouncedValue(text.trim(), DELAY_MS);

  const focusSearch = useRef(() => {
    // Rendered before focusing: a box still hidden behind its icon cannot take focus.
    flushSync(() => setExpanded(true));
    inputRef.current?.focus();
    inputRef.current?.select();
  }).current;
  useFocusShortcut(focusSearch);

  const results = trpc.prompts.list.useQuery(
    { organizationId: activeOrganization?.id ?? "", q, limit: RESULTS },
    { enabled: !!activeOrganization && q.length > 0, placeholderData: (previous) => previous },
  );
  const items = q ? (results.data?.items ?? []) : [];
  const mayOpenList = can(pageAccess, "page.prompts");
  useEffect(() => setActive(-1), [q]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  /** Puts the box back behind its icon (below 1024 px), and focus on the icon when it was in the box. */
  const collapse = () => {
    close();
    if (document.activeElement === inputRef.current && iconRef.current?.checkVisibility()) iconRef.current.focus();
    setExpanded(false);
  };
  const openPrompt = (promptId: string) => {
    collapse();
    setText("");
    void navigate({ to: "/prompts/$promptId", params: { promptId } });
  };
  const submit = () => {
    const chosen = items[active];
    if (chosen) return openPrompt(chosen.id);
    if (!text.trim()) return;
    if (mayOpenList) {
      collapse();
      void navigate({ to: "/prompts", search: { q: text.trim() } });
    } else if (items[0]) openPrompt(items[0].id);
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (!items.length) return;
      // -1 is the input itself: the choice cycles through the results and back to the text.
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => ((current + 1 + step + items.length + 1) % (items.length + 1)) - 1);
    } else if (event.key === "Escape") {
      // The first Escape closes the results, the next one the box opened from the icon.
      if (showList || expanded) event.preventDefault();
      if (showList) close();
      else collapse();
    }
  };
  const listId = `${id}-results`;
  const showList = open && q.length > 0;
  const optionId = (index: number) => `${id}-option-${index}`;

  return (
    <>
      <Button
        ref={iconRef}
        variant="ghost"
        size="icon"
        className="lg:hidden"
        aria-label="Search prompts"
        aria-keyshortcuts="/ Control+K Meta+K"
        aria-expanded={expanded}
        onClick={focusSearch}
      >
        <Search aria-hidden="true" />
      </Button>
      <form
        role="search"
        className={cn(
          "flex items-center gap-1 lg:relative lg:w-56 xl:w-64",
          // Opened on a narrow screen it covers the whole header: a sliver of the controls behind it left
          // targets too small to hit (axe's target-size), and they are not meant to be hit then.
          expanded ? "max-lg:absolute max-lg:inset-0 max-lg:z-10 max-lg:bg-background max-lg:px-2" : "max-lg:hidden",
        )}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        onBlur={(event) => {
          // Leaving the box for the page closes it; moving within it (to the close button) does not.
          const form = event.currentTarget;
          if (form.contains(event.relatedTarget as Node | null)) return;
          setTimeout(() => {
            // Back in the box meanwhile (the shortcut right after leaving it): it stays open.
            if (form.contains(document.activeElement)) return;
            close();
            setExpanded(false);
          }, 150);
        }}
      >
        <label htmlFor={id} className="sr-only">
          Search prompts
        </label>
        <div className="relative min-w-0 flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            ref={inputRef}
            id={id}
            type="search"
            role="combobox"
            aria-expanded={showList}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={active >= 0 && active < items.length ? optionId(active) : undefined}
            aria-keyshortcuts="/ Control+K Meta+K"
            autoComplete="off"
            placeholder="Search prompts..."
            className="pl-8"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onKeyDown={onKeyDown}
          />
        </div>
        {expanded && (
          <Button type="button" variant="ghost" size="icon" className="lg:hidden" aria-label="Close search" onClick={collapse}>
            <X aria-hidden="true" />
          </Button>
        )}
        {showList && (
          <div className="absolute top-full right-0 z-50 mt-1 w-96 max-w-[calc(100vw-1rem)] rounded-md border bg-popover p-1 text-popover-foreground shadow-md">
            <ul id={listId} role="listbox" aria-label="Matching prompts">
              {items.map((item, index) => (
                <li
                  key={item.id}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  className="cursor-pointer rounded px-2 py-1.5 text-sm aria-selected:bg-accent hover:bg-accent"
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => openPrompt(item.id)}
                >
                  <span className="block truncate font-medium">{item.title}</span>
                  <span className="block truncate font-mono text-xs text-muted-foreground">
                    {item.teamName} · {item.name}
                  </span>
                </li>
              ))}
            </ul>
            {!items.length && (
              <p className="px-2 py-1.5 text-sm text-muted-foreground" role="status">
                {results.isFetching ? "Searching..." : "No matching prompts"}
              </p>
            )}
            {mayOpenList && items.length > 0 && <p className="px-2 pt-1 text-xs text-muted-foreground">Press Enter to see all results</p>}
          </div>
        )}
      </form>
    </>
  );
}
