// The header's switchers (organization, team): a button showing the active item that opens a
// searchable list with a check mark on the active one, and optional actions under the list. The button
// takes the width the header gives it (compact below 1024 px); a name it cuts short shows in full in a
// tooltip on hover and focus, and the list never cuts names. A name cut short keeps its last word in
// sight ("Customer Su…Alpha"), so two names that start alike can still be told apart on a phone.
import { useRef, useState, type ComponentType } from "react";
import { Check, ChevronsUpDown } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Command, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList, CommandSeparator } from "@/components/ui/command";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";

export interface SwitcherItem {
  id: string;
  name: string;
  /** A second line that tells items of one name apart (an organization's slug). */
  detail?: string;
  /** Texts the search matches, anywhere, ignoring case (the name, a slug, ...). */
  keywords: string[];
}

export interface SwitcherAction {
  value: string;
  label: string;
  icon: ComponentType<{ "aria-hidden"?: boolean | "true" }>;
  onSelect(): void;
}

/** The last word of a name, with the separator before it, when it is short enough to keep in sight; else "". */
function nameTail(name: string): string {
  if (name.length <= 12) return "";
  const match = /[\s\-_/.]+[^\s\-_/.]{1,10}$/.exec(name);
  return match && match.index > 0 ? match[0] : "";
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
  /** Shown under the label in the tooltip, which then opens even when the label is not cut. */
  labelDetail?: string;
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
  const [tooltipOpen, setTooltipOpen] = useState(false);
  const labelRef = useRef<HTMLSpanElement>(null);
  const Icon = props.icon;
  // The tooltip only repeats what the button cannot show: a label cut short, or the detail.
  const labelIsCut = () => !!labelRef.current && labelRef.current.scrollWidth > labelRef.current.clientWidth;
  const tail = nameTail(props.label);
  const head = tail ? props.label.slice(0, -tail.length) : props.label;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <Tooltip open={tooltipOpen && !open} onOpenChange={(next) => setTooltipOpen(next && (!!props.labelDetail || labelIsCut()))}>
        <PopoverTrigger asChild>
          <TooltipTrigger asChild>
            <Button
              variant="outline"
              role="combobox"
              aria-expanded={open}
              aria-label={`${props.kind}: ${props.label}`}
              data-testid={props.testId}
              className="w-full justify-between gap-1.5 px-2 lg:gap-2 lg:px-3"
            >
              <Icon aria-hidden="true" className="text-muted-foreground" />
              <span className="sr-only">{props.kind}: </span>
              <span className="flex min-w-0 flex-1 text-left">
                <span ref={labelRef} className="min-w-0 truncate whitespace-pre">
                  {head}
                </span>
                {tail && (
                  <span data-part="tail" className="shrink-0 whitespace-pre">
                    {tail}
                  </span>
                )}
              </span>
              {/* Below 1024 px the chevron gives its room to the name. */}
              <ChevronsUpDown aria-hidden="true" className="hidden opacity-50 lg:block" />
            </Button>
          </TooltipTrigger>
        </PopoverTrigger>
        <TooltipContent side="bottom" align="start" className="max-w-[min(20rem,calc(100vw-1rem))] wrap-anywhere">
          <span className="block">{props.label}</span>
          {props.labelDetail && <span className="block font-mono opacity-80">{props.labelDetail}</span>}
        </TooltipContent>
      </Tooltip>
      {/* What opens is a dialog holding the search and the list (ARIA 1.2 combobox with a dialog popup). */}
      <PopoverContent
        className={cn("max-w-[calc(100vw-1rem)] p-0", props.contentClassName)}
        align="start"
        aria-label={`Switch ${props.kind.toLowerCase()}`}
      >
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
                      {/* Names wrap rather than being cut, so similar ones can be told apart. */}
                      <span className="min-w-0 flex-1 wrap-anywhere">
                        <span className="block">{item.name}</span>
                        {item.detail && <span className="block font-mono text-xs text-muted-foreground">{item.detail}</span>}
                      </span>
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
