// A provider's event stream (server-sent events) handed to its SDK in whole events. The openai SDK (6.x)
// searches all it holds of an event again at each piece of it it is given: one event of megabytes in
// 64 KiB pieces cost it seconds of CPU (one that never ends, about 27 s before the answer's size cap,
// outbound.ts, ended it); given whole, it searches each byte once. The bytes are handed on as they came,
// only in other pieces (the SDK reads the events itself), but for events named `thread.…` (threadEventsDropped).

const LF = 0x0a;
const CR = 0x0d;

/**
 * Where the last end of an event (a blank line: `\n\n`, `\r\r` or `\r\n\r\n`, as the SDKs find it) in
 * `chunk` ends; `before`: the last bytes held before it (an end may straddle the two). -1: none.
 */
function lastEventEnd(chunk: Uint8Array, before: Uint8Array): number {
  const at = (index: number) => (index >= 0 ? chunk[index] : before[before.length + index]);
  // One step back a byte: searching for each of LF and CR would go back to the piece's start for the
  // one it lacks at every line, quadratic in a piece of many short lines.
  for (let index = chunk.length - 1; index >= 0; index--) {
    const byte = chunk[index];
    if (byte !== LF && byte !== CR) continue;
    if (at(index - 1) === byte || (byte === LF && at(index - 1) === CR && at(index - 2) === LF && at(index - 3) === CR)) return index + 1;
  }
  return -1;
}

/** Whether `chunk` ends with the end of an event. */
function endsEvent(chunk: Uint8Array): boolean {
  const last = chunk.length - 1;
  const byte = chunk[last];
  if (last < 1 || (byte !== LF && byte !== CR)) return false;
  return chunk[last - 1] === byte || (byte === LF && last >= 3 && chunk[last - 1] === CR && chunk[last - 2] === LF && chunk[last - 3] === CR);
}

/** `pieces` as one array (the piece itself when there is one). */
function joined(pieces: Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const whole = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.length;
  }
  return whole;
}

/**
 * An event stream's body handed on in whole events: what comes of an event not yet ended is held and
 * handed on with its end. Nothing waits longer for it: an event is of no use before its end.
 */
export function inWholeEvents(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const reading = body[Symbol.asyncIterator]();
      let held: Uint8Array[] = [];
      let heldLength = 0;
      /** The last bytes held (an event's end may straddle them and the next piece). */
      let tail = new Uint8Array();
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          for (;;) {
            const step = await reading.next();
            if (step.done) {
              if (!heldLength) return step;
              const rest = joined(held, heldLength);
              [held, heldLength] = [[], 0];
              return { done: false, value: rest };
            }
            const chunk = step.value;
            // The usual piece: whole events, nothing held before it.
            if (!heldLength && endsEvent(chunk)) return step;
            const end = lastEventEnd(chunk, tail);
            if (end < 0) {
              held.push(chunk);
              heldLength += chunk.length;
              tail = chunk.length >= 3 ? chunk.slice(-3) : joined([tail, chunk], tail.length + chunk.length).slice(-3);
              continue;
            }
            const whole = end === chunk.length && !heldLength ? chunk : joined([...held, chunk.subarray(0, end)], heldLength + end);
            const rest = chunk.subarray(end);
            [held, heldLength, tail] = rest.length ? [[rest], rest.length, rest.slice(-3)] : [[], 0, new Uint8Array()];
            return { done: false, value: whole };
          }
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          [held, heldLength] = [[], 0];
          await reading.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

const THREAD = Buffer.from("thread.");
const DONE = Buffer.from("[DONE]");

/**
 * `events` (whole events, or what is left of an unended one at the stream's end) without those named
 * `thread.…` (but the one whose data is [DONE], which ends the stream): the openai SDK reads them apart, as
 * its Assistants API's, printing one whose data is not JSON to the process's error output (whatever the
 * client's logLevel) and handing one whose data is on as an object that is no chat completion's chunk. A
 * provider's answer to a chat completion has none, so a provider cannot write to the server's log once per
 * event. Lines and fields as the SDK reads them (SSE: a line ends at CR, LF or CRLF; a field's name ends
 * at its first colon, one space after it skipped). `events` itself when none is dropped.
 */
export function withoutThreadEvents(events: Uint8Array): Uint8Array {
  const bytes = Buffer.from(events.buffer, events.byteOffset, events.byteLength);
  if (bytes.indexOf(THREAD) < 0) return events;
  const kept: Uint8Array[] = [];
  let keptLength = 0;
  /** Where the kept bytes not yet in `kept` begin, and where the event being read began. */
  let keepFrom = 0;
  let eventStart = 0;
  let named = false;
  let dataSeen = false;
  let done = false;
  const endEvent = (end: number) => {
    if (named && !done) {
      if (eventStart > keepFrom) kept.push(bytes.subarray(keepFrom, eventStart));
      keptLength += eventStart - keepFrom;
      keepFrom = end;
    }
    [eventStart, named, dataSeen, done] = [end, false, false, false];
  };
  // The next CR and LF, each searched again only once passed: each byte is looked at once.
  let nextLf = bytes.indexOf(LF);
  let nextCr = bytes.indexOf(CR);
  for (let lineStart = 0; lineStart < bytes.length; ) {
    if (nextLf >= 0 && nextLf < lineStart) nextLf = bytes.indexOf(LF, lineStart);
    if (nextCr >= 0 && nextCr < lineStart) nextCr = bytes.indexOf(CR, lineStart);
    const lineEnd = nextLf < 0 ? (nextCr < 0 ? bytes.length : nextCr) : nextCr < 0 ? nextLf : Math.min(nextLf, nextCr);
    const next = lineEnd === bytes.length ? lineEnd : lineEnd + (bytes[lineEnd] === CR && bytes[lineEnd + 1] === LF ? 2 : 1);
    if (lineEnd === lineStart) {
      endEvent(next);
    } else if (bytes[lineStart] !== 0x3a) {
      const colon = bytes.indexOf(0x3a, lineStart);
      const nameEnd = colon < 0 || colon > lineEnd ? lineEnd : colon;
      const valueStart = nameEnd === lineEnd ? lineEnd : nameEnd + 1 + (bytes[nameEnd + 1] === 0x20 && nameEnd + 1 < lineEnd ? 1 : 0);
      const field = bytes.toString("latin1", lineStart, nameEnd);
      const startsWith = (prefix: Buffer) => lineEnd - valueStart >= prefix.length && bytes.compare(prefix, 0, prefix.length, valueStart, valueStart + prefix.length) === 0;
      if (field === "event") named = startsWith(THREAD);
      else if (field === "data" && !dataSeen) [dataSeen, done] = [true, startsWith(DONE)];
    }
    lineStart = next;
  }
  // An event unended at the stream's end: the SDK reads it too (a last line end makes its blank line).
  if (eventStart < bytes.length) endEvent(bytes.length);
  if (!keptLength && keepFrom === 0) return events;
  if (keepFrom < bytes.length) kept.push(bytes.subarray(keepFrom));
  return joined(kept, keptLength + bytes.length - keepFrom);
}

/** `events` (inWholeEvents') without events named `thread.…` (withoutThreadEvents); a piece left empty is not handed on. */
function threadEventsDropped(events: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const reading = events[Symbol.asyncIterator]();
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          for (;;) {
            const step = await reading.next();
            if (step.done) return step;
            const value = withoutThreadEvents(step.value);
            if (value.length) return value === step.value ? step : { done: false, value };
          }
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          await reading.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/**
 * `fetchAnswer` whose successful event streams reach the SDK in whole events (inWholeEvents), without
 * events named `thread.…` (threadEventsDropped); any other answer as it came.
 */
export function wholeEvents(fetchAnswer: typeof fetch): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await fetchAnswer(input, init);
    const body = response.body as unknown as AsyncIterable<Uint8Array> | null;
    if (!body || !response.headers.get("content-type")?.trim().toLowerCase().startsWith("text/event-stream")) return response;
    // The same answer, its body handed on in whole events; read whole instead (text(), json()), as it came.
    return Object.defineProperty(response, "body", { value: threadEventsDropped(inWholeEvents(body)) });
  }) as typeof fetch;
}
