// The streamed run's events: the first written at once, those that come close written together after
// the pace, the last at once with what waits; the bytes those of the events one after the other.
import { describe, expect, it } from "vitest";
import type { Response } from "express";
import { EventWriter } from "./event-writer.ts";

/** A response that keeps what is written, and says when the next write comes. */
function response() {
  const writes: { text: string; at: number }[] = [];
  const ended: (string | undefined)[] = [];
  let wrote: (() => void) | undefined;
  const res = {
    destroyed: false,
    write(text: string) {
      writes.push({ text, at: performance.now() });
      wrote?.();
      return true;
    },
    end(text?: string) {
      ended.push(text);
    },
  };
  const nextWrite = () => new Promise<void>((resolve) => (wrote = resolve));
  return { res: res as unknown as Response & { destroyed: boolean }, writes, ended, nextWrite };
}
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

describe("EventWriter", () => {
  it("writes the first event at once, paces those that come close, and the last at once with what waits", async () => {
    const { res, writes, ended, nextWrite } = response();
    let now = 1_000;
    const writer = new EventWriter(res, 40, () => now);
    writer.send("delta", { text: "Hel" });
    expect(writes.map((write) => write.text)).toEqual([frame("delta", { text: "Hel" })]);
    // Within the pace: they wait; none comes after them, so they go after twice the pace (a timer).
    const second = nextWrite();
    const waiting = performance.now();
    now += 5;
    writer.send("delta", { text: "lo" });
    writer.send("delta", { text: " there" });
    expect(writes).toHaveLength(1);
    await second;
    expect(writes[1]!.text).toBe(frame("delta", { text: "lo" }) + frame("delta", { text: " there" }));
    expect(writes[1]!.at - waiting).toBeGreaterThanOrEqual(70);
    // One waits; the next, coming after the pace, takes it along at once.
    now += 10;
    writer.send("delta", { text: "," });
    expect(writes).toHaveLength(2);
    now += 40;
    writer.send("delta", { text: " you" });
    expect(writes[2]!.text).toBe(frame("delta", { text: "," }) + frame("delta", { text: " you" }));
    // Within the pace again: it waits, until the last event, which takes it along at once.
    now += 1;
    writer.send("delta", { text: "!" });
    expect(writes).toHaveLength(3);
    writer.end({ event: "done", data: { output: "Hello there, you!" } });
    expect(ended).toEqual([frame("delta", { text: "!" }) + frame("done", { output: "Hello there, you!" })]);
  });

  it("writes what waits when flushed (the answer cut short), ends with nothing left, and writes nothing to a closed response", async () => {
    const { res, writes, ended } = response();
    const writer = new EventWriter(res, 10_000);
    writer.send("delta", { text: "a" });
    writer.send("delta", { text: "b" });
    writer.flush();
    expect(writes.map((write) => write.text)).toEqual([frame("delta", { text: "a" }), frame("delta", { text: "b" })]);
    writer.flush();
    expect(writes).toHaveLength(2);
    writer.end();
    expect(ended).toEqual([undefined]);
    writer.send("delta", { text: "c" });
    res.destroyed = true;
    writer.flush();
    writer.end({ event: "done", data: {} });
    expect(writes).toHaveLength(2);
    expect(ended).toHaveLength(1);
  });

  it("writes nothing after the end: an event or a second end that races it is dropped", () => {
    const { res, writes, ended } = response();
    const writer = new EventWriter(res, 40, () => 1_000);
    writer.send("delta", { text: "Hi" });
    writer.end({ event: "error", data: { message: "stopped" } });
    writer.send("delta", { text: " late" });
    writer.flush();
    writer.end({ event: "done", data: {} });
    expect(writes.map((write) => write.text)).toEqual([frame("delta", { text: "Hi" })]);
    expect(ended).toEqual([frame("error", { message: "stopped" })]);
  });
});
