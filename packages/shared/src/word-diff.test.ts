import { describe, expect, it } from "vitest";
import { diffWords, type WordChange } from "./word-diff.ts";

const side = (changes: WordChange[], kind: "added" | "removed") => changes.filter((change) => change.kind !== kind).map((change) => change.text).join("");

describe("diffWords", () => {
  it("marks only the word that changed inside a line", () => {
    expect(diffWords("Write a short poem about {{ topic }}.", "Write a long poem about {{ topic }}.")).toEqual([
      { kind: "same", text: "Write a " },
      { kind: "removed", text: "short" },
      { kind: "added", text: "long" },
      { kind: "same", text: " poem about {{ topic }}." },
    ]);
  });

  it("marks words added and removed at either end", () => {
    expect(diffWords("Say hello.", "Please say hello twice.")).toEqual([
      { kind: "removed", text: "Say" },
      { kind: "added", text: "Please" },
      { kind: "same", text: " " },
      { kind: "added", text: "say " },
      { kind: "same", text: "hello" },
      { kind: "added", text: " twice" },
      { kind: "same", text: "." },
    ]);
  });

  it("keeps punctuation apart from its word, and letters beyond ASCII whole", () => {
    expect(diffWords("Grüße, Welt", "Grüße; Welt")).toEqual([
      { kind: "same", text: "Grüße" },
      { kind: "removed", text: "," },
      { kind: "added", text: ";" },
      { kind: "same", text: " Welt" },
    ]);
  });

  it("gives back both lines: same and removed parts make the line before, same and added the line after", () => {
    const pairs = [
      ["", "All new"],
      ["All gone", ""],
      ["The quick brown fox jumps", "A quick red fox leaps over"],
      ["same", "same"],
    ] as const;
    for (const [before, after] of pairs) {
      const changes = diffWords(before, after);
      expect(side(changes, "added")).toBe(before);
      expect(side(changes, "removed")).toBe(after);
    }
    expect(diffWords("", "")).toEqual([]);
  });

  it("compares a line too long to pair word by word as a whole", () => {
    const before = "word ".repeat(1_500);
    const after = "term ".repeat(1_500);
    expect(diffWords(before, after)).toEqual([{ kind: "removed", text: before }, { kind: "added", text: after }]);
  });
});
