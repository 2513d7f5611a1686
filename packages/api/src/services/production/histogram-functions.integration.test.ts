// The database's histogram functions, which every rollup row's upsert and its day's trigger call: bucket by
// bucket, a missing bucket counting 0, the longer histogram's length, NULL for no histogram.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../../../testing/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const one = async (sql: string) => {
  const [row] = await h.services.db.$queryRawUnsafe<{ value: number[] | null }[]>(`SELECT (${sql}) AS value`);
  return row!.value;
};

describe("production_hist_add, production_hist_negate and production_hist_sum", () => {
  it("add two histograms bucket by bucket, to the longer one's length", async () => {
    expect(await one(`production_hist_add('{1,2,3}', '{10,20,30}')`)).toEqual([11, 22, 33]);
    expect(await one(`production_hist_add('{1,2,3}', '{5}')`)).toEqual([6, 2, 3]);
    expect(await one(`production_hist_add('{5}', '{1,2,3}')`)).toEqual([6, 2, 3]);
    expect(await one(`production_hist_add('{1,NULL,3}', '{1,1}')`)).toEqual([2, 1, 3]);
    expect(await one(`production_hist_add(NULL, '{4,0}')`)).toEqual([4, 0]);
    expect(await one(`production_hist_add('{}', NULL)`)).toEqual([]);
    expect(await one(`production_hist_add(NULL, NULL)`)).toEqual([]);
  });

  it("negate a histogram, keeping its length", async () => {
    expect(await one(`production_hist_negate('{3,0,-2}')`)).toEqual([-3, 0, 2]);
    expect(await one(`production_hist_negate('{}')`)).toEqual([]);
    expect(await one(`production_hist_negate(NULL)`)).toEqual([]);
    expect(await one(`production_hist_add('{3,4}', production_hist_negate('{3,4}'))`)).toEqual([0, 0]);
  });

  it("sum a column of histograms", async () => {
    expect(await one(`SELECT production_hist_sum(h) FROM (VALUES ('{1,1}'::int[]), ('{2}'), ('{0,0,5}')) AS x(h)`)).toEqual([3, 1, 5]);
    expect(await one(`SELECT production_hist_sum(h) FROM (VALUES ('{1}'::int[])) AS x(h) WHERE false`)).toEqual([]);
  });
});
