// Server-sent events of a streamed answer, written together when they come close. A write is a system
// call (and a wake-up of the reader), paid per piece of a model's answer, which is often a word every few
// milliseconds. The first event goes at once (the time to first token is the caller's to see); one that
// comes within EVENT_PACE_MS of the last write waits for the next event that comes after it (the model's
// next piece, which wakes the server anyway), or for twice the pace when none comes, whichever is first;
// the last event goes with what waits and the end of the body, in one write. The bytes are the same,
// event by event; a person sees no 10 or 20 ms.
import type { Response } from "express";

const EVENT_PACE_MS = 10;

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export class EventWriter {
  private pending = "";
  private lastWrite = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  /** Once ended, nothing more is written (a piece that races the answer's end is dropped, not written after it). */
  private ended = false;

  constructor(
    private readonly res: Response,
    private readonly paceMs = EVENT_PACE_MS,
    private readonly clock = () => performance.now(),
  ) {}

  /** One event, written at once or paced. */
  send(event: string, data: unknown): void {
    if (this.ended) return;
    this.pending += frame(event, data);
    const now = this.clock();
    if (now - this.lastWrite >= this.paceMs) return this.flush(now);
    // No more events coming: what waits goes after twice the pace (a timer that seldom fires while they come).
    this.timer ??= setTimeout(() => this.flush(), this.lastWrite + 2 * this.paceMs - now);
  }

  /** Ends the answer with what waits and the last event, in one write with the end of the body. */
  end(last?: { event: string; data: unknown }): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.pending + (last ? frame(last.event, last.data) : "");
    this.pending = "";
    if (this.res.destroyed) return;
    if (text) this.res.end(text);
    else this.res.end();
  }

  /** Writes what waits (an answer cut short another way). */
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
