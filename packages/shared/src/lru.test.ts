// The bounded map of the runtime and session caches: its bound, and which entry goes past it.
import { describe, expect, it } from "vitest";
import { Lru } from "./lru.ts";

const kept = (lru: Lru<number>, keys: string[]) => keys.filter((key) => lru.get(key) !== undefined);

describe("Lru", () => {
  it("keeps at most its bound, dropping the least recently used", () => {
    const lru = new Lru<number>(3);
    for (const [index, key] of ["a", "b", "c"].entries()) lru.set(key, index);
    lru.get("a");
    lru.set("d", 3);
    expect(lru.size).toBe(3);
    expect(lru.get("b")).toBeUndefined();
    // a was read after c was set: c is now the least recently used.
    lru.set("e", 4);
    expect(kept(lru, ["a", "b", "c", "d", "e"])).toEqual(["a", "d", "e"]);
  });

  it("never drops the entry just set, even when every other was read", () => {
    const lru = new Lru<number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.get("a");
    lru.get("b");
    lru.set("c", 3);
    expect(lru.get("c")).toBe(3);
    expect(lru.size).toBe(2);
  });

  it("replaces a value in place, and drops by test, one key or all", () => {
    const lru = new Lru<number>(5);
    for (const [index, key] of ["a", "b", "c", "d"].entries()) lru.set(key, index);
    lru.set("a", 10);
    expect([lru.get("a"), lru.size]).toEqual([10, 4]);
    lru.dropWhere((value) => value % 2 === 1);
    expect(kept(lru, ["a", "b", "c", "d"])).toEqual(["a", "c"]);
    lru.delete("a");
    expect(kept(lru, ["a", "c"])).toEqual(["c"]);
    lru.clear();
    expect(lru.size).toBe(0);
  });
});
