// A line diff (jsdiff's diffLines) in its own scrolling frame: added lines green with '+', removed red
// with '-', each also named for screen readers.
import { useMemo } from "react";
import { diffLines } from "diff";
import { cn } from "@/lib/utils";

type Kind = "added" | "removed" | "same";

const withNewline = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`);

function diffRows(before: string, after: string) {
  return diffLines(withNewline(before), withNewline(after)).flatMap((change) => {
    const kind: Kind = change.added ? "added" : change.removed ? "removed" : "same";
    return change.value.replace(/\n$/, "").split("\n").map((text) => ({ kind, text }));
  });
}

const MARK: Record<Kind, { sign: string; spoken?: string; className?: string }> = {
  added: { sign: "+", spoken: "Added", className: "bg-green-500/15 text-green-800 dark:text-green-300" },
  removed: { sign: "-", spoken: "Removed", className: "bg-red-500/15 text-red-800 dark:text-red-300" },
  same: { sign: " " },
};

export function LineDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const rows = useMemo(() => diffRows(before, after), [before, after]);
  const added = rows.filter((row) => row.kind === "added").length;
  const removed = rows.filter((row) => row.kind === "removed").length;
  return (
    <div className="grid min-w-0 gap-1">
      <p className="text-xs text-muted-foreground">
        {added} {added === 1 ? "line" : "lines"} added, {removed} removed
      </p>
      <div
        role="region"
        aria-label={`${label} diff`}
        tabIndex={0}
        className="max-h-[28rem] overflow-auto rounded-md border border-border font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <div className="min-w-fit py-1">
          {rows.map((row, index) => {
            const mark = MARK[row.kind];
            return (
              <div key={index} data-diff={row.kind} className={cn("flex px-2 leading-5 whitespace-pre", mark.className)}>
                <span aria-hidden="true" className="w-4 shrink-0 select-none">
                  {mark.sign}
                </span>
                {mark.spoken && <span className="sr-only">{mark.spoken}: </span>}
                <span>{row.text || " "}</span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
