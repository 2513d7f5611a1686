import { describe, expect, it } from "vitest";
import { bucketText, chartBuckets } from "./chart-buckets.ts";

const point = (at: string, generations: number, errors = 0, latencyP50Ms: number | null = 100) => ({ at, generations, errors, latencyP50Ms, latencyP95Ms: latencyP50Ms, cost: 0 });

describe("the charts' buckets", () => {
  it("fill the UTC days of the range the server left out, from the day the range starts in", () => {
    const buckets = chartBuckets([point("2026-12-02T00:00:00.000Z", 40, 6, 420), point("2026-12-04T00:00:00.000Z", 10)], {
      from: "2026-12-01T15:00:00.000Z",
      to: "2026-12-05T15:00:00.000Z",
      bucket: "day",
    });
    expect(buckets.map((bucket) => [bucket.at.toISOString(), bucket.generations, bucket.errors, bucket.latencyP50Ms])).toEqual([
      ["2026-12-01T00:00:00.000Z", 0, 0, null],
      ["2026-12-02T00:00:00.000Z", 40, 6, 420],
      ["2026-12-03T00:00:00.000Z", 0, 0, null],
      ["2026-12-04T00:00:00.000Z", 10, 0, 100],
      ["2026-12-05T00:00:00.000Z", 0, 0, null],
    ]);
  });

  it("fill every hour of a day's range", () => {
    const buckets = chartBuckets([point("2026-12-05T03:00:00.000Z", 2)], { from: "2026-12-05T00:00:00.000Z", to: "2026-12-06T00:00:00.000Z", bucket: "hour" });
    expect(buckets).toHaveLength(24);
    expect(buckets.filter((bucket) => bucket.generations > 0).map((bucket) => bucket.at.toISOString())).toEqual(["2026-12-05T03:00:00.000Z"]);
  });

  it("read in UTC, whatever the reader's time zone", () => {
    const at = new Date("2026-12-03T00:00:00.000Z");
    expect(bucketText(at, "day", "en-US")).toBe("Dec 3, 2026");
    expect(bucketText(new Date("2026-12-03T14:00:00.000Z"), "hour", "en-US")).toBe("Dec 3, 2026, 2:00 PM");
  });
});
