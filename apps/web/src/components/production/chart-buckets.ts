// The charts' buckets over the whole range. The server sends a version's buckets that have generations
// only, so the empty ones are filled in here (no generations, no latency): every bar and point then
// sits at its time, a gap shows as one, and the versions' charts line up. The buckets are UTC hours or
// UTC days (from UTC midnight, as the server bins the rollups), and their texts say so.
import type { RouterOutputs } from "@promptly/api";

type Metrics = RouterOutputs["production"]["metrics"];
type Point = Metrics["series"][number]["points"][number];
export type ChartBucketSize = Metrics["bucket"];

const HOUR = 3_600_000;
const SIZE: Record<ChartBucketSize, number> = { hour: HOUR, day: 24 * HOUR };

export interface ChartBucket {
  at: Date;
  generations: number;
  errors: number;
  latencyP50Ms: number | null;
}

/** Every bucket of [from, to), oldest first, with the version's figures in it or none. */
export function chartBuckets(points: readonly Point[], span: { from: string; to: string; bucket: ChartBucketSize }): ChartBucket[] {
  const size = SIZE[span.bucket];
  const byTime = new Map(points.map((point) => [Date.parse(point.at), point]));
  const times = new Set<number>();
  for (let time = Math.floor(Date.parse(span.from) / size) * size; time < Date.parse(span.to); time += size) times.add(time);
  // A point off the grid (never expected) is still shown rather than lost.
  for (const time of byTime.keys()) times.add(time);
  return [...times]
    .sort((a, b) => a - b)
    .map((time) => {
      const point = byTime.get(time);
      return { at: new Date(time), generations: point?.generations ?? 0, errors: point?.errors ?? 0, latencyP50Ms: point?.latencyP50Ms ?? null };
    });
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** A bucket's start in UTC, in the reader's locale: "Dec 3, 2026" for a day, "Dec 3, 2026, 2:00 PM" for an hour. */
export function bucketText(at: Date, bucket: ChartBucketSize, locale?: string): string {
  const key = `${locale ?? ""}|${bucket}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, bucket === "day" ? { timeZone: "UTC", dateStyle: "medium" } : { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" });
    formats.set(key, format);
  }
  return format.format(at);
}
