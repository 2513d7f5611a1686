import { describe, expect, it } from "vitest";
import { auditCsv } from "./audit-csv.ts";

describe("auditCsv", () => {
  it("writes a header and one quoted row per event, formulas defused", () => {
    const csv = auditCsv([
      {
        createdAt: new Date("2026-11-23T10:00:00Z"),
        action: "prompt.label.set",
        actor: { kind: "user", id: "u1", name: "Ada, Admin" },
        target: { type: "prompt", id: "p1", name: "=cmd" },
        teamName: "Core",
        before: { label: "production", version: 1 },
        after: { label: "production", version: 2 },
        ip: "10.0.0.1",
      },
    ]);
    const [header, row] = csv.trimEnd().split("\r\n");
    expect(header).toBe("time,actor,actor_kind,actor_id,action,target_type,target_id,target_name,team,before,after,ip");
    expect(row).toBe(
      `2026-11-23T10:00:00.000Z,"Ada, Admin",user,u1,prompt.label.set,prompt,p1,'=cmd,Core,"{""label"":""production"",""version"":1}","{""label"":""production"",""version"":2}",10.0.0.1`,
    );
  });
});
