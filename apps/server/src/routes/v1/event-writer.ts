// Server-sent events of a streamed answer, written together when they come close. A write is a system
// call (and a wake-up of the reader), paid per piece of a model's answer, which is often a word every few
// milliseconds. The first event goes at once (the time to first token is the caller's to see); one that
// comes within EVENT_PACE_MS of the last write waits for the next event that comes after it (the model's
// next piece, which wakes the server anyway), or for twice the pace when none comes, whichever is first;
// the last event goes at once with what waits. The bytes are the same, event by event; a person sees no
// 10 or 20 ms.
import type { Response } from "express";

const EVENT_PACE_MS = 10;

export class EventWriter {
  private pending = "";
  private lastWrite = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: Response,
    private readonly paceMs = EVENT_PACE_MS,
    private readonly clock = () => performance.now(),
  ) {}

  /** One event; `last` writes it, and what waits, at once. */
  send(event: string, data: unknown, last = false): void {
    this.pending += `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    const now = this.clock();
    if (last || now - this.lastWrite >= this.paceMs) return this.flush(now);
    // No more events coming: what waits goes after twice the pace (a timer that seldom fires while they come).
    this.timer ??= setTimeout(() => this.flush(), this.lastWrite + 2 * this.paceMs - now);
  }

  /** Writes what waits (called before the answer ends, however it ends). */
  flush(now = this.clock()): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = "";
    this.lastWrite = now;
    if (!this.res.destroyed) this.res.write(text);
  }
}
