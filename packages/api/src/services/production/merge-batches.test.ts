// What one merge transaction takes: a generation takes two locks for the transaction (its own, its trace's),
// a score one, and PostgreSQL's lock table holds some ten thousand for the whole server. A request is appended
// as rows of at most 250 generations and scores; a merge takes whole rows up to 1,000 locks, its scores counted
// too (rows of scores alone were counted as none: ten of them, 2,500 locks, in one transaction).
import { describe, expect, it } from "vitest";
import { mergedTogether, pendingRowsOf, shardOf, writeSent, type GenerationPatch, type ScoreDraft } from "./ingest.ts";

const seenAt = new Date("2026-12-06T12:00:00Z");
const generation = (observationId: string): GenerationPatch => ({ observationId, source: "otel", promptName: "p", version: 1, seenAt });
const score = (observationId: string): ScoreDraft => ({ observationId, name: "helpful", dataType: "numeric", value: 1, stringValue: null, source: "api" });
const row = (generations: GenerationPatch[], scores: ScoreDraft[]) => ({ sent: writeSent({ generations, scores }), generations: generations.length });

describe("a merge's rows", () => {
  it("count two locks a generation and one a score, up to 1,000 a transaction", () => {
    const scoresOnly = Array.from({ length: 10 }, (_, index) => row([], Array.from({ length: 250 }, (_, n) => score(`s-${index}-${n}`))));
    const { taken, read } = mergedTogether(scoresOnly);
    expect(taken).toHaveLength(4);
    expect(taken.map((one) => read.get(one)!.scores.length)).toEqual([250, 250, 250, 250]);
    const mixed = [row([generation("g-1")], Array.from({ length: 600 }, (_, n) => score(`m-${n}`))), row(Array.from({ length: 200 }, (_, n) => generation(`g-${n + 2}`)), [])];
    expect(mergedTogether(mixed).taken).toHaveLength(1);
    // Spans of 100 a request (each of its own trace): five requests a merge.
    const spans = Array.from({ length: 8 }, (_, index) => row(Array.from({ length: 100 }, (_, n) => generation(`r-${index}-${n}`)), []));
    expect(mergedTogether(spans).taken).toHaveLength(5);
  });

  it("take a row larger than the batch alone, and count one that cannot be read as its generations (it fails in the merge)", () => {
    expect(mergedTogether([row([], Array.from({ length: 1_200 }, (_, n) => score(`l-${n}`))), row([generation("next")], [])]).taken).toHaveLength(1);
    const unreadable = { sent: "{not json", generations: 3 };
    const { taken, read } = mergedTogether([unreadable, row([generation("after")], [])]);
    expect(taken).toEqual([unreadable, expect.anything()]);
    expect(read.has(unreadable)).toBe(false);
  });
});

describe("a request's pending rows", () => {
  it("hold at most 250 generations and scores each, by shard in the order sent, scores after the generations, the dropped spans on one row", () => {
    const generations = Array.from({ length: 1_100 }, (_, n) => generation(`req-${n}`));
    const scores = Array.from({ length: 700 }, (_, n) => score(`req-${n * 3}`));
    const rows = pendingRowsOf({ generations, scores });
    for (const one of rows) expect(one.sent.generations.length + one.sent.scores.length).toBeLessThanOrEqual(250);
    expect(rows.filter((one) => one.first)).toEqual([expect.objectContaining({ shard: 0 })]);
    for (const shard of [0, 1]) {
      const ofShard = rows.filter((one) => one.shard === shard);
      expect(ofShard.flatMap((one) => one.sent.generations)).toEqual(generations.filter((patch) => shardOf(patch.observationId) === shard));
      expect(ofShard.flatMap((one) => one.sent.scores)).toEqual(scores.filter((draft) => shardOf(draft.observationId) === shard));
      // No generation comes after the first score of its shard.
      const firstScore = ofShard.findIndex((one) => one.sent.scores.length > 0);
      expect(ofShard.slice(firstScore + 1).every((one) => one.sent.generations.length === 0)).toBe(true);
    }
  });

  it("are one row, in shard 0, for a request whose spans all named no prompt", () => {
    expect(pendingRowsOf({ generations: [], scores: [] })).toEqual([{ shard: 0, sent: { generations: [], scores: [] }, first: true }]);
  });
});
