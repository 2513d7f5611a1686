// The runtime cache's own rules, without a database: bounded LRU, what a notification drops, no
// answers while not listening, and no keeping of a read that a change overtook.
import { describe, expect, it } from "vitest";
import type { RuntimePrompt } from "@promptly/shared";
import { RuntimeCache } from "./runtime-cache.ts";
import type { CachedApiKey } from "../identity/api-keys.ts";

const prompt = (teamId: string, version = 1, template?: string) => ({
  teamId, promptId: `p-${teamId}`, prompt: { version, template } as RuntimePrompt, unresolved: null, includes: [], version: { id: "v", createdAt: "", commitMessage: "", authorId: null, latestVersion: version }, facts: { visibility: "team" as const, authorId: null },
});
const key = (id: string, teamId: string): CachedApiKey => ({
  id, teamId, labels: null, scopes: ["read"], lastUsedAt: null, expiresAt: null, revokedAt: null,
});

function listeningCache(maxEntries?: number, maxPromptBytes?: number) {
  const cache = new RuntimeCache({ maxEntries, maxPromptBytes });
  cache.setListening(true);
  return cache;
}

describe("RuntimeCache", () => {
  it("keeps at most its bound, dropping the least recently used", () => {
    const cache = listeningCache(2);
    cache.keepPrompt("a", prompt("t"), cache.mark());
    cache.keepPrompt("b", prompt("t"), cache.mark());
    expect(cache.prompt("a")).toBeDefined(); // a is now the most recent
    cache.keepPrompt("c", prompt("t"), cache.mark());
    expect(cache.prompt("b")).toBeUndefined();
    expect(cache.prompt("a")).toBeDefined();
    expect(cache.prompt("c")).toBeDefined();
    expect(cache.entries.prompts).toBe(2);
  });

  it("keeps at most its budget of bytes too: large prompts push the least recently used out, whatever their number", () => {
    const budget = 100_000;
    const cache = listeningCache(undefined, budget);
    // About 40,000 bytes each (4 a character): two fit, a third does not.
    const large = (name: string) => cache.keepPrompt(name, prompt("t", 1, name.repeat(10_000)), cache.mark());
    large("a");
    large("b");
    expect(cache.entries.prompts).toBe(2);
    const two = cache.bytes;
    expect(two).toBeGreaterThan(80_000);
    expect(cache.prompt("a")).toBeDefined(); // a is now the most recent
    large("c");
    expect([cache.prompt("a"), cache.prompt("b"), cache.prompt("c")].map(Boolean)).toEqual([true, false, true]);
    expect(cache.bytes).toBe(two);
    for (const name of ["d", "e", "f", "g", "h"]) {
      large(name);
      expect(cache.bytes).toBeLessThanOrEqual(budget);
      expect(cache.prompt(name)).toBeDefined();
    }
    expect(cache.entries.prompts).toBe(2);
    // What goes, by a notification, a replacement or a lost connection, is no longer counted.
    cache.invalidate("team:t");
    expect([cache.entries.prompts, cache.bytes]).toEqual([0, 0]);
    large("a");
    large("a");
    expect(cache.bytes).toBe(two / 2);
    cache.setListening(false);
    expect(cache.bytes).toBe(0);
  });

  it("does not keep a prompt larger than its whole budget, nor the older answer of its key, and keeps the others", () => {
    const cache = listeningCache(undefined, 100_000);
    cache.keepPrompt("small", prompt("t"), cache.mark());
    cache.keepPrompt("x", prompt("t"), cache.mark());
    const before = cache.bytes;
    cache.keepPrompt("x", prompt("t", 2, "x".repeat(30_000)), cache.mark());
    expect(cache.prompt("x")).toBeUndefined();
    expect(cache.prompt("small")).toBeDefined();
    expect(cache.entries.prompts).toBe(1);
    expect(cache.bytes).toBe(before / 2);
  });

  it("a team's notification drops that team's prompts and keys only; a key's drops that key", () => {
    const cache = listeningCache();
    cache.keepPrompt("t1/x", prompt("t1"), cache.mark());
    cache.keepPrompt("t2/x", prompt("t2"), cache.mark());
    cache.keepApiKey("h1", key("k1", "t1"), cache.mark());
    cache.keepApiKey("h2", key("k2", "t2"), cache.mark());
    cache.keepApiKey("h3", key("k3", "t2"), cache.mark());
    cache.invalidate("team:t1");
    expect([cache.prompt("t1/x"), cache.apiKey("h1")]).toEqual([undefined, undefined]);
    expect(cache.prompt("t2/x")).toBeDefined();
    cache.invalidate("key:k2");
    expect(cache.apiKey("h2")).toBeUndefined();
    expect(cache.apiKey("h3")).toBeDefined();
    cache.invalidate("");
    expect(cache.entries).toEqual({ prompts: 0, keys: 0 });
  });

  it("answers and keeps nothing while not listening, and starts empty when listening again", () => {
    const cache = listeningCache();
    cache.keepPrompt("x", prompt("t"), cache.mark());
    cache.setListening(false);
    expect(cache.prompt("x")).toBeUndefined();
    cache.keepPrompt("y", prompt("t"), cache.mark());
    cache.setListening(true);
    expect(cache.entries).toEqual({ prompts: 0, keys: 0 });
  });

  it("does not keep a read that a notification overtook", () => {
    const cache = listeningCache();
    const mark = cache.mark();
    cache.invalidate("team:other");
    cache.keepPrompt("x", prompt("t"), mark);
    expect(cache.prompt("x")).toBeUndefined();
  });
});
