// Server-sent events of a streamed answer, written together when they come close. A write is a system
// call (and a wake-up of the reader), paid per piece of a model's answer, which is often a word every few
// milliseconds. The first event goes at once (the time to first token is the caller's to see), then what
// comes within EVENT_PACE_MS of the last write waits for that much to pass, and the last event goes at
// once with what waits. The bytes are the same, event by event; a person sees no 10 ms.
import type { Response } from "express";

const EVENT_PACE_MS = 10;

export class EventWriter {
  private pending = "";
  private lastWrite = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: Response,
    private readonly paceMs = EVENT_PACE_MS,
  ) {}

  /** One event; `last` writes it, and what waits, at once. */
  send(event: string, data: unknown, last = false): void {
    this.pending += `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    const now = performance.now();
    if (last || now - this.lastWrite >= this.paceMs) return this.flush(now);
    this.timer ??= setTimeout(() => this.flush(performance.now()), this.lastWrite + this.paceMs - now);
  }

  /** Writes what waits (called before the answer ends, however it ends). */
  flush(now = performance.now()): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = "";
    this.lastWrite = now;
    if (!this.res.destroyed) this.res.write(text);
  }
}
