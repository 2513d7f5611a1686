// The carousel of team cards on the Teams page: name (truncated at 150 px) and member count;
// a click selects the team; the arrows appear only when there is somewhere to scroll.
import { useCallback, useEffect, useRef, useState } from "react";
import { ChevronLeft, ChevronRight, Users } from "lucide-react";
import { memberCountLabel } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import type { Team } from "./team-types.ts";

export function TeamCarousel({ teams, selectedId, onSelect }: { teams: Team[]; selectedId: string | null; onSelect(team: Team): void }) {
  const scroller = useRef<HTMLUListElement>(null);
  const [canPrevious, setCanPrevious] = useState(false);
  const [canNext, setCanNext] = useState(false);

  const measure = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    setCanPrevious(element.scrollLeft > 1);
    setCanNext(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
  }, []);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, [measure, teams.length]);

  const scrollBy = (direction: -1 | 1) => {
    const element = scroller.current;
    // Glides, unless the system asks for less motion.
    const behavior = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "instant" : "smooth";
    if (element) element.scrollBy({ left: direction * element.clientWidth * 0.8, behavior });
  };

  return (
    <div className="relative flex items-center gap-2" data-testid="team-carousel">
      {canPrevious && (
        <Button variant="outline" size="icon" className="shrink-0 rounded-full" aria-label="Previous teams" onClick={() => scrollBy(-1)}>
          <ChevronLeft aria-hidden="true" />
        </Button>
      )}
      <ul ref={scroller} aria-label="Teams" className="flex flex-1 snap-x snap-mandatory gap-3 overflow-x-auto scroll-smooth py-1 [scrollbar-width:none]">
        {teams.map((team) => {
          const selected = team.id === selectedId;
          return (
            <li key={team.id} className="shrink-0 snap-start basis-[calc(50%-0.375rem)] sm:basis-44 lg:basis-48">
              <button
                type="button"
                aria-pressed={selected}
                data-testid="team-card"
                onClick={() => onSelect(team)}
                className={cn(
                  "flex w-full flex-col gap-1 rounded-lg border bg-card p-4 text-left shadow-xs transition-colors outline-none",
                  "hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                  selected ? "border-primary ring-1 ring-primary" : "border-border",
                )}
              >
                <span className="flex items-center gap-2 font-medium">
                  <Users aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  <span className="max-w-[150px] truncate" title={team.name}>
                    {team.name}
                  </span>
                </span>
                <span className="text-sm text-muted-foreground">{memberCountLabel(team.memberCount)}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {canNext && (
        <Button variant="outline" size="icon" className="shrink-0 rounded-full" aria-label="Next teams" onClick={() => scrollBy(1)}>
          <ChevronRight aria-hidden="true" />
        </Button>
      )}
    </div>
  );
}
