// Tables. One wider than its place scrolls inside its frame, never the page: the frame then takes
// focus (keyboard users scroll it with the arrow keys), is a region named like the table, fades at the
// edge that hides columns and says "Scroll sideways for more".
import { useCallback, useId, useLayoutEffect, useRef, useState, type ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** Whether the frame hides columns before (start) or after (end) what it shows. */
function useHiddenEdges() {
  const frame = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: false, end: false });
  const measure = useCallback(() => {
    const element = frame.current;
    if (!element) return;
    const start = element.scrollLeft > 1;
    const end = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
    setEdges((current) => (current.start === start && current.end === end ? current : { start, end }));
  }, []);
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, [measure]);
  return { frame, edges };
}

export function Table({ className, ...props }: ComponentProps<"table">) {
  const { frame, edges } = useHiddenEdges();
  const hintId = useId();
  const scrolls = edges.start || edges.end;
  return (
    <div className="w-full">
      <div className="relative">
        {/* Inline-size containment: however wide the table, it never widens a grid or flex parent (nor the page). */}
        <div
          ref={frame}
          data-slot="table-container"
          role={scrolls ? "region" : undefined}
          aria-label={scrolls ? props["aria-label"] : undefined}
          aria-describedby={scrolls ? hintId : undefined}
          tabIndex={scrolls ? 0 : undefined}
          className="w-full overflow-x-auto rounded-sm [contain:inline-size] focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <table data-slot="table" className={cn("w-full caption-bottom text-sm", className)} {...props} />
        </div>
        <div
          aria-hidden="true"
          className={cn("pointer-events-none absolute top-0 left-0 h-full w-8 bg-linear-to-r from-card to-transparent transition-opacity", edges.start ? "opacity-100" : "opacity-0")}
        />
        <div
          aria-hidden="true"
          className={cn("pointer-events-none absolute top-0 right-0 h-full w-8 bg-linear-to-l from-card to-transparent transition-opacity", edges.end ? "opacity-100" : "opacity-0")}
        />
      </div>
      {scrolls && (
        <p id={hintId} className="mt-2 text-xs text-muted-foreground">
          Scroll sideways for more
        </p>
      )}
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={cn("[&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={cn("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableFooter({ className, ...props }: ComponentProps<"tfoot">) {
  return <tfoot data-slot="table-footer" className={cn("border-t bg-muted/50 font-medium [&>tr]:last:border-b-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={cn("border-b border-border transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted", className)} {...props} />;
}

export function TableHead({ className, ...props }: ComponentProps<"th">) {
  return <th data-slot="table-head" className={cn("h-10 px-2 text-left align-middle font-medium whitespace-nowrap text-foreground", className)} {...props} />;
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td data-slot="table-cell" className={cn("p-2 align-middle whitespace-nowrap", className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<"caption">) {
  return <caption data-slot="table-caption" className={cn("mt-4 text-sm text-muted-foreground", className)} {...props} />;
}
