// Which words changed inside a changed line: the line before and the line after split into words and
// the spaces between them, the longest run they share kept, the rest marked removed or added. The
// Compare tab shows a changed line's own changes with it instead of only the whole line.

export type WordChange = { kind: "same" | "added" | "removed"; text: string };

/** Beyond this many word pairs a line is compared as a whole (the table grows with their product). */
const MAX_CELLS = 1_000_000;

/** Words, runs of spaces and single marks of punctuation: a comma changed does not mark its word. */
const tokens = (text: string) => text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];

/** Joins neighbours of one kind, so the marks read as phrases. */
function merged(changes: WordChange[]): WordChange[] {
  const out: WordChange[] = [];
  for (const change of changes) {
    const last = out.at(-1);
    if (last && last.kind === change.kind) last.text += change.text;
    else out.push({ ...change });
  }
  return out;
}

/**
 * The changes from `before` to `after` word by word, in the order they read: removed words come before
 * the words added in their place. Joining the same and removed parts gives `before`; same and added, `after`.
 */
export function diffWords(before: string, after: string): WordChange[] {
  if (before === after) return before ? [{ kind: "same", text: before }] : [];
  const a = tokens(before);
  const b = tokens(after);
  if (a.length * b.length > MAX_CELLS) {
    return [...(before ? [{ kind: "removed" as const, text: before }] : []), ...(after ? [{ kind: "added" as const, text: after }] : [])];
  }
  // common[i][j]: the length of the longest shared run of a[i..] and b[j..].
  const width = b.length + 1;
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i * width + j] = a[i] === b[j] ? common[(i + 1) * width + j + 1]! + 1 : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
    }
  }
  const changes: WordChange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      changes.push({ kind: "same", text: a[i]! });
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && common[(i + 1) * width + j]! >= common[i * width + j + 1]!)) {
      changes.push({ kind: "removed", text: a[i]! });
      i++;
    } else {
      changes.push({ kind: "added", text: b[j]! });
      j++;
    }
  }
  return merged(changes);
}
