// An event stream handed on in whole events: the same bytes, each event as soon as the piece holding its
// end comes, however the provider's bytes were cut (an end split across pieces, CRLF or CR line ends).
import { describe, expect, it } from "vitest";
import { inWholeEvents, withoutThreadEvents } from "./whole-events.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (piece: Uint8Array) => new TextDecoder().decode(piece);

/** What inWholeEvents hands on for `pieces`, each with how many pieces had been read when it was. */
async function handedOn(pieces: string[]) {
  let read = 0;
  const source = (async function* () {
    for (const piece of pieces) {
      read++;
      yield bytes(piece);
    }
  })();
  const out: { text: string; read: number }[] = [];
  for await (const piece of inWholeEvents(source)) out.push({ text: text(piece), read });
  return out;
}

describe("an event stream in whole events", () => {
  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["CR", "\r"],
  ])("hands on each event (%s line ends) with the piece that ends it, the bytes unchanged", async (_name, end) => {
    const events = [`data: {"a":1}${end}${end}`, `event: x${end}data: {"b":2}${end}${end}`, `data: [DONE]${end}${end}`];
    const stream = events.join("");
    // Cut at every place: the end of each event may fall in any piece.
    for (let cut = 1; cut < stream.length; cut++) {
      const out = await handedOn([stream.slice(0, cut), stream.slice(cut)]);
      expect(out.map((piece) => piece.text).join("")).toBe(stream);
      for (const piece of out) expect(events.some((event) => piece.text.endsWith(event))).toBe(true);
    }
    // One byte a piece: each event is handed on as soon as its last byte is read, nothing later.
    const out = await handedOn([...stream]);
    expect(out.map((piece) => piece.text)).toEqual(events);
    let at = 0;
    expect(out.map((piece) => piece.read)).toEqual(events.map((event) => (at += event.length)));
  });

  it("hands on several events of one piece together, and what is left of an unended event at the stream's end", async () => {
    expect(await handedOn(["data: 1\n\ndata: 2\n\ndata: 3", "\n", "data: 4"])).toEqual([
      { text: "data: 1\n\ndata: 2\n\n", read: 1 },
      { text: "data: 3\ndata: 4", read: 3 },
    ]);
  });

  it("holds a long event's pieces and hands it on once, whole", async () => {
    const piece = "x".repeat(64 * 1024);
    const out = await handedOn(["data: ", ...Array.from({ length: 64 }, () => piece), "\n", "\nda", "ta: [DONE]\n\n"]);
    expect(out.map((one) => [one.text.length, one.read])).toEqual([[6 + 64 * piece.length + 2, 67], ["data: [DONE]\n\n".length, 68]]);
  });

  it.each([
    ["LF", "\n"],
    ["CR", "\r"],
  ])("finds an event's end in linear time in pieces of many short lines (%s)", async (_name, end) => {
    // One event of 2 MiB of short data lines in 64 KiB pieces, then its blank line. Each line's search
    // for the line end its piece lacked went back to the piece's start: about 8 s of CPU for this, now milliseconds
    // (the bound is loose, for a loaded machine, and still far below the quadratic search).
    const piece = `d${end}`.repeat(32 * 1024);
    const startedAt = performance.now();
    const out = await handedOn([...Array.from({ length: 32 }, () => piece), end]);
    expect(performance.now() - startedAt).toBeLessThan(3_000);
    expect(out.map((one) => [one.text.length, one.read])).toEqual([[32 * piece.length + 1, 33]]);
  });

  it("closes the stream under it when its reader leaves", async () => {
    let closed = false;
    const source = (async function* () {
      try {
        yield bytes("data: 1\n\n");
        yield bytes("data: 2\n\n");
      } finally {
        closed = true;
      }
    })();
    for await (const piece of inWholeEvents(source)) {
      expect(text(piece)).toBe("data: 1\n\n");
      break;
    }
    expect(closed).toBe(true);
  });
});

describe("events named thread.… dropped", () => {
  const kept = (events: string) => text(withoutThreadEvents(bytes(events)));

  it.each([
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["CR", "\r"],
  ])("drops each event named thread.… whole (%s line ends), the others' bytes unchanged", (_name, end) => {
    const [a, b] = [`data: {"a":1}${end}${end}`, `: a comment${end}data: {"b":2}${end}${end}`];
    const threads = [
      `event: thread.message.delta${end}data: not JSON${end}${end}`,
      `event:thread.run.created${end}data: {"id":"run_1"}${end}data: 2${end}${end}`,
      `id: 1${end}event: thread.run.step${end}${end}`,
      `event: message${end}event: thread.x${end}data: {}${end}${end}`,
    ];
    expect(kept([threads[0], a, threads[1], threads[2], b, threads[3]].join(""))).toBe(a + b);
    expect(kept(threads.join(""))).toBe("");
    // Unended at the stream's end: the SDK reads it as well.
    expect(kept(`${a}event: thread.x${end}data: y${end}`)).toBe(a);
  });

  it("keeps every other event as it is: thread. elsewhere, another name, [DONE] (which ends the stream)", () => {
    for (const events of [
      'data: {"text":"thread.message"}\n\n',
      "event: thread\ndata: {}\n\nevent: threads.x\ndata: {}\n\nevent:  thread.x\ndata: {}\n\n",
      "event: thread.x\nevent: message\ndata: {}\n\n",
      "thread.x: 1\n\n: event: thread.x\n\n",
      "event: thread.done\ndata: [DONE]\n\n",
    ]) {
      const piece = bytes(events);
      expect(withoutThreadEvents(piece)).toBe(piece);
    }
    expect(kept("event: thread.x\ndata: 1\n\nevent: thread.done\ndata: [DONE]\n\n")).toBe("event: thread.done\ndata: [DONE]\n\n");
  });
});
