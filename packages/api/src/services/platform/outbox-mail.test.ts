import { describe, expect, it } from "vitest";
import { MailKind } from "@promptly/db";
import { registerMailRenderer, registeredMailKinds, renderOutboxMail } from "./outbox-mail.ts";
// The domains' hooks, as every process loads them.
import "../hooks.ts";

describe("the outbox's kinds of mail", () => {
  it("every kind of the database has its renderer, registered by its domain", () => {
    expect(registeredMailKinds()).toEqual(Object.values(MailKind).sort());
  });

  it("a kind registered twice is refused (two domains cannot both write it)", () => {
    expect(() => registerMailRenderer("already_registered", () => ({ skip: "twice" }))).toThrow(/registered already/);
  });

  it("a link asked for too long ago is skipped, before anything is looked up", async () => {
    const createdAt = new Date("2026-01-01T00:00:00Z");
    const now = new Date(createdAt.getTime() + 61 * 60_000);
    // No database: the wait alone decides, so the renderer is never reached.
    const db = new Proxy({}, { get: () => { throw new Error("the database was read"); } }) as never;
    const rendered = await renderOutboxMail({ db, config: { appUrl: "http://app.test", secret: "s".repeat(32) } }, { kind: "magic_link", to: "a@b.test", payload: { redirectTo: null } }, { createdAt, now });
    expect(rendered).toEqual({ skip: "Asked for too long ago; a new link must be requested" });
  });
});
