// A provider's event stream (server-sent events) handed to its SDK in whole events. The openai SDK (6.x)
// searches all it holds of an event again at each piece of it it is given: one event of megabytes in
// 64 KiB pieces cost it seconds of CPU (one that never ends, about 27 s before the answer's size cap,
// outbound.ts, ended it); given whole, it searches each byte once. The bytes are handed on as they came,
// only in other pieces: the SDK reads the events itself.

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

/** `fetchAnswer` whose successful event streams reach the SDK in whole events (inWholeEvents); any other answer as it came. */
export function wholeEvents(fetchAnswer: typeof fetch): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const response = await fetchAnswer(input, init);
    const body = response.body as unknown as AsyncIterable<Uint8Array> | null;
    if (!body || !response.headers.get("content-type")?.trim().toLowerCase().startsWith("text/event-stream")) return response;
    // The body as given may not be redefined: the same answer, its body handed on in whole events.
    const framed = new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
    // Read whole instead (a call that asked for no stream): as the answer itself reads.
    Object.defineProperties(framed, {
      body: { value: inWholeEvents(body) },
      arrayBuffer: { value: () => response.arrayBuffer() },
      text: { value: () => response.text() },
      json: { value: () => response.json() as Promise<unknown> },
    });
    return framed;
  }) as typeof fetch;
}
