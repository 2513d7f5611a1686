// The header's switchers (organization, team): a button showing the active item that opens a
// searchable list with a check mark on the active one, and optional actions under the list.
import { useState, type ComponentType } from "react";
import { Check, ChevronsUpDown } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Command, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandSeparator } from "@/components/ui/command";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { cn } from "@/lib/utils";

export interface SwitcherItem {
  id: string;
  name: string;
  /** Texts the search matches, anywhere, ignoring case (the name, a slug, ...). */
  keywords: string[];
}

export interface SwitcherAction {
  value: string;
  label: string;
  icon: ComponentType<{ "aria-hidden"?: boolean | "true" }>;
  onSelect(): void;
}

/** Items match when one of their keywords contains the search. */
function matchKeywords(_value: string, search: string, keywords?: string[]) {
  const needle = search.trim().toLowerCase();
  if (!needle) return 1;
  return (keywords ?? []).some((keyword) => keyword.toLowerCase().includes(needle)) ? 1 : 0;
}

export function SearchableSwitcher(props: {
  testId: string;
  icon: ComponentType<{ "aria-hidden"?: boolean | "true"; className?: string }>;
  /** Read before the label by screen readers, e.g. "Team". */
  kind: string;
  label: string;
  searchPlaceholder: string;
  emptyText: string;
  heading: string;
  items: SwitcherItem[];
  activeId: string | null;
  onSelectItem(id: string): void;
  actions: SwitcherAction[];
  contentClassName: string;
  listClassName?: string;
}) {
  const [open, setOpen] = useState(false);
  const Icon = props.icon;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="outline"
          role="combobox"
          aria-expanded={open}
          aria-label={`${props.kind}: ${props.label}`}
          data-testid={props.testId}
          className="w-40 justify-between md:w-52"
        >
          <Icon aria-hidden="true" className="text-muted-foreground" />
          <span className="sr-only">{props.kind}: </span>
          <span className="flex-1 truncate text-left">{props.label}</span>
          <ChevronsUpDown aria-hidden="true" className="opacity-50" />
        </Button>
      </PopoverTrigger>
      {/* What opens is a dialog holding the search and the list (ARIA 1.2 combobox with a dialog popup). */}
      <PopoverContent className={cn("p-0", props.contentClassName)} align="start" aria-label={`Switch ${props.kind.toLowerCase()}`}>
        <Command filter={matchKeywords} label={props.searchPlaceholder.replace(/\.+$/, "")}>
          <CommandInput placeholder={props.searchPlaceholder} />
          <CommandList className={props.listClassName} label={props.heading}>
            <CommandEmpty>{props.emptyText}</CommandEmpty>
            {props.items.length > 0 && (
              <CommandGroup heading={props.heading}>
                {props.items.map((item) => {
                  const active = item.id === props.activeId;
                  return (
                    <CommandItem
                      key={item.id}
                      value={item.id}
                      keywords={item.keywords}
                      aria-current={active ? "true" : undefined}
                      onSelect={() => {
                        props.onSelectItem(item.id);
                        setOpen(false);
                      }}
                    >
                      <span className="truncate">{item.name}</span>
                      <Check aria-hidden="true" className={cn("ml-auto", active ? "opacity-100" : "opacity-0")} />
                    </CommandItem>
                  );
                })}
              </CommandGroup>
            )}
            {props.actions.length > 0 && (
              <>
                <CommandSeparator />
                {/* forceMount: the actions stay reachable whatever the search says. */}
                <CommandGroup forceMount>
                  {props.actions.map((action) => (
                    <CommandItem
                      key={action.value}
                      forceMount
                      value={action.value}
                      onSelect={() => {
                        setOpen(false);
                        action.onSelect();
                      }}
                    >
                      <action.icon aria-hidden="true" />
                      {action.label}
                    </CommandItem>
                  ))}
                </CommandGroup>
              </>
            )}
          </CommandList>
        </Command>
      </PopoverContent>
    </Popover>
  );
}
