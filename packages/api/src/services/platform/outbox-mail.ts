// What each kind of outbox message says, decided when it is sent: the emailed link is issued now (so
// its lifetime starts when it leaves), and a message whose reason is gone (no such account, an
// invitation cancelled or accepted, a sign-in link asked for too long ago) is skipped, not sent.
// The outbox knows no kind itself: each domain declares the kinds it sends and their payloads (by
// adding to MailPayloads) and registers how they are written (registerMailRenderer), beside the rest
// of its code: identity the sign-up and sign-in mails, organizations the invitations, notifications
// the notification mail and digest.
import type { DbOrTx } from "@promptly/db";

/**
 * What each kind of message needs besides its recipient. Empty here: a domain adds its kinds with
 * `declare module "../platform/outbox-mail.ts" { interface MailPayloads { kind: Payload } }`.
 * @public (read by the domains' declaration merging, which knip does not see as a use)
 */
export interface MailPayloads {}

export type MailKindName = keyof MailPayloads;

export type MailRequest = { [K in MailKindName]: { kind: K; to: string; payload: MailPayloads[K] } }[MailKindName];

export type RenderedMail = { subject: string; text: string; html: string } | { skip: string };

interface MailRenderContext {
  db: DbOrTx;
  config: { appUrl: string; secret: string };
  /** When the message was queued, and now (its sending). */
  at: { createdAt: Date; now: Date };
}

export type MailRenderer<K extends MailKindName> = (mail: { to: string; payload: MailPayloads[K] }, context: MailRenderContext) => Promise<RenderedMail> | RenderedMail;

interface Registered {
  render: MailRenderer<never>;
  /** Asked for by someone waiting for it: past this, a new one must be asked for (skipped). */
  maxWaitMs?: number;
}

const renderers = new Map<string, Registered>();

/** How messages of `kind` are written; a domain registers each kind it sends, once, when its module loads. */
export function registerMailRenderer<K extends MailKindName>(kind: K, render: MailRenderer<K>, options: { maxWaitMs?: number } = {}): void {
  if (renderers.has(kind)) throw new Error(`A mail renderer for "${kind}" is registered already`);
  renderers.set(kind, { render: render as MailRenderer<never>, maxWaitMs: options.maxWaitMs });
}

/** The kinds that have a renderer (the outbox's tests check every kind of the database has one). */
export const registeredMailKinds = (): string[] => [...renderers.keys()].sort();

export async function renderOutboxMail(
  deps: { db: DbOrTx; config: { appUrl: string; secret: string } },
  mail: MailRequest,
  at: { createdAt: Date; now: Date },
): Promise<RenderedMail> {
  const registered = renderers.get(mail.kind);
  // Thrown, not skipped: the message stays queued and is retried (a process started without the module).
  if (!registered) throw new Error(`No mail renderer is registered for "${mail.kind}"`);
  if (registered.maxWaitMs !== undefined && at.now.getTime() - at.createdAt.getTime() > registered.maxWaitMs) {
    return { skip: "Asked for too long ago; a new link must be requested" };
  }
  return registered.render(mail as never, { db: deps.db, config: deps.config, at });
}
