// A line diff (jsdiff's diffLines) in its own scrolling frame: added lines green with '+', removed red
// with '-', each also named for screen readers. A removed line followed by the line added in its place
// marks the words that changed inside them (the shared diffWords). Unified (one list) or side by side
// (before on the left, after on the right, a changed line across from its replacement).
import { useMemo, type ReactNode } from "react";
import { diffLines } from "diff";
import { diffWords, type WordChange } from "@promptly/shared";
import { cn } from "@/lib/utils";

type Kind = "added" | "removed" | "same";
/** A line, and for a changed line paired with its replacement, its words as they changed. */
interface Row {
  kind: Kind;
  text: string;
  words?: WordChange[];
}

const withNewline = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`);

/** The rows of one list, and of the two sides: removed lines paired, one by one, with the added lines that follow them. */
function diffRows(before: string, after: string) {
  const blocks = diffLines(withNewline(before), withNewline(after)).map((change) => ({
    kind: (change.added ? "added" : change.removed ? "removed" : "same") as Kind,
    lines: change.value.replace(/\n$/, "").split("\n"),
  }));
  const unified: Row[] = [];
  const sides: { left: Row | null; right: Row | null }[] = [];
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index]!;
    if (block.kind === "same") {
      for (const text of block.lines) {
        unified.push({ kind: "same", text });
        sides.push({ left: { kind: "same", text }, right: { kind: "same", text } });
      }
      continue;
    }
    const removed = block.kind === "removed" ? block.lines : [];
    const next = blocks[index + 1];
    const added = block.kind === "added" ? block.lines : next?.kind === "added" ? next.lines : [];
    if (block.kind === "removed" && next?.kind === "added") index++;
    const words = removed.map((line, i) => (i < added.length ? diffWords(line, added[i]!) : undefined));
    const left = removed.map((text, i): Row => ({ kind: "removed", text, words: words[i] }));
    const right = added.map((text, i): Row => ({ kind: "added", text, words: words[i] }));
    unified.push(...left, ...right);
    for (let i = 0; i < Math.max(left.length, right.length); i++) sides.push({ left: left[i] ?? null, right: right[i] ?? null });
  }
  return { unified, sides };
}

const MARK: Record<Kind, { sign: string; spoken?: string; className?: string; word?: string }> = {
  added: { sign: "+", spoken: "Added", className: "bg-green-500/15 text-green-800 dark:text-green-300", word: "rounded-sm bg-green-500/35 font-semibold text-green-950 no-underline dark:text-green-50" },
  removed: { sign: "-", spoken: "Removed", className: "bg-red-500/15 text-red-800 dark:text-red-300", word: "rounded-sm bg-red-500/35 font-semibold text-red-950 line-through dark:text-red-50" },
  same: { sign: " " },
};

/** The line's text; a paired line shows its own side's words, the changed ones marked as deleted or inserted text. */
function LineText({ row }: { row: Row }): ReactNode {
  if (!row.words) return <span>{row.text || " "}</span>;
  const mine = row.words.filter((word) => word.kind === "same" || word.kind === row.kind);
  return (
    <span>
      {mine.map((word, index) =>
        word.kind === "same" ? (
          <span key={index}>{word.text}</span>
        ) : word.kind === "removed" ? (
          <del key={index} data-word-diff="removed" className={MARK.removed.word}>
            {word.text}
          </del>
        ) : (
          <ins key={index} data-word-diff="added" className={MARK.added.word}>
            {word.text}
          </ins>
        ),
      )}
      {mine.length === 0 && " "}
    </span>
  );
}

function Line({ row }: { row: Row | null }) {
  if (!row) return <div data-diff="none" className="px-2 leading-5 bg-muted/40" aria-hidden="true">&nbsp;</div>;
  const mark = MARK[row.kind];
  return (
    <div data-diff={row.kind} className={cn("flex px-2 leading-5 whitespace-pre", mark.className)}>
      <span aria-hidden="true" className="w-4 shrink-0 select-none">
        {mark.sign}
      </span>
      {mark.spoken && <span className="sr-only">{mark.spoken}: </span>}
      <LineText row={row} />
    </div>
  );
}

export function LineDiff({ before, after, label, sideBySide = false }: { before: string; after: string; label: string; sideBySide?: boolean }) {
  const { unified, sides } = useMemo(() => diffRows(before, after), [before, after]);
  const added = unified.filter((row) => row.kind === "added").length;
  const removed = unified.filter((row) => row.kind === "removed").length;
  const frame = "max-h-[28rem] overflow-auto rounded-md border border-border font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring";
  return (
    <div className="grid min-w-0 gap-1">
      <p className="text-xs text-muted-foreground">
        {added} {added === 1 ? "line" : "lines"} added, {removed} removed
      </p>
      {sideBySide ? (
        <div role="region" aria-label={`${label} diff`} tabIndex={0} data-view="side-by-side" className={cn(frame, "grid grid-cols-2 divide-x")}>
          {(["left", "right"] as const).map((side) => (
            <div key={side} className="min-w-0 overflow-x-auto py-1" data-side={side === "left" ? "before" : "after"}>
              <span className="sr-only">{side === "left" ? "Before" : "After"}</span>
              <div className="min-w-fit">
                {sides.map((pair, index) => (
                  <Line key={index} row={pair[side]} />
                ))}
              </div>
            </div>
          ))}
        </div>
      ) : (
        <div role="region" aria-label={`${label} diff`} tabIndex={0} className={frame}>
          <div className="min-w-fit py-1">
            {unified.map((row, index) => (
              <Line key={index} row={row} />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
