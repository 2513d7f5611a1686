// An error of the merge thread reaches the process's log with what the logger would have printed of it
// there: its name, message, stack, PostgreSQL's fields and its cause, across postMessage's structured clone.
import { describe, expect, it } from "vitest";
import { errorFromThread, threadErrorOf } from "./ingest-merge-protocol.ts";

describe("merge thread errors", () => {
  it("keep their name, PostgreSQL's fields and their cause across the thread boundary", () => {
    const database = Object.assign(new Error('insert or update on table "generations" violates foreign key constraint'), {
      code: "23503", detail: "Key (team_id) is not present", constraint: "generations_team_id_fkey", table: "generations", position: 12,
    });
    database.name = "DatabaseError";
    const thrown = new Error("A request that failed to merge is kept pending", { cause: database });
    const arrived = errorFromThread(structuredClone(threadErrorOf(thrown)));
    expect(arrived.message).toBe("A request that failed to merge is kept pending");
    expect(arrived.stack).toBe(thrown.stack);
    const cause = arrived.cause as Error & Record<string, unknown>;
    expect(cause.name).toBe("DatabaseError");
    expect(cause).toMatchObject({ message: database.message, code: "23503", detail: "Key (team_id) is not present", constraint: "generations_team_id_fkey", table: "generations", position: 12 });
    expect(errorFromThread(threadErrorOf("not an Error")).message).toBe("not an Error");
  });
});
