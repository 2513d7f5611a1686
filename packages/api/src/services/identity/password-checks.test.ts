// argon2id holds 19 MiB per computation: a burst of password checks runs one at a time and queues the
// rest, and every one of them still gets its answer.
import { describe, expect, it } from "vitest";
import { hashPassword, passwordChecks, verifyPassword } from "./auth.ts";

describe("password checks", () => {
  it("run one at a time; the others wait and are answered", async () => {
    const stored = await hashPassword("correct horse battery staple");
    let mostAtOnce = 0;
    const watch = setInterval(() => (mostAtOnce = Math.max(mostAtOnce, passwordChecks.activeCount)), 1);
    try {
      const burst = Array.from({ length: 8 }, (_, i) => verifyPassword(stored, i % 2 ? "wrong" : "correct horse battery staple"));
      expect(passwordChecks.pendingCount).toBe(7);
      expect(await Promise.all(burst)).toEqual([true, false, true, false, true, false, true, false]);
    } finally {
      clearInterval(watch);
    }
    expect(mostAtOnce).toBe(1);
    expect(passwordChecks.activeCount + passwordChecks.pendingCount).toBe(0);
  });
});
