// The runtime cache's own rules, without a database: bounded LRU, what a notification drops, no
// answers while not listening, and no keeping of a read that a change overtook.
import { describe, expect, it } from "vitest";
import type { RuntimePrompt } from "@promptly/shared";
import { RuntimeCache } from "./runtime-cache.ts";
import type { CachedApiKey } from "../identity/api-keys.ts";

const prompt = (teamId: string, version = 1) => ({
  teamId, promptId: `p-${teamId}`, prompt: { version } as RuntimePrompt, unresolved: null, includes: [], version: { id: "v", createdAt: "", commitMessage: "", authorId: null, latestVersion: version }, facts: { visibility: "team" as const, authorId: null },
});
const key = (id: string, teamId: string): CachedApiKey => ({
  id, teamId, labels: null, scopes: ["read"], lastUsedAt: null, expiresAt: null, revokedAt: null,
});

function listeningCache(max?: number) {
  const cache = new RuntimeCache(max);
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
