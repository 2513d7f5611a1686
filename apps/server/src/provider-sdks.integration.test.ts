// A server that starts with a stored connection loads its provider's SDK during the start, before any
// run asks for it, so the first run waits for no module load; the SDK of a kind no connection has stays
// unloaded. The server is a process of its own: the modules another test loaded in this one prove nothing.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@promptly/db/testing";
import { sharedServicesEnv, startServerProcess, type ServerProcess } from "../test/server-process.ts";

let database: TestDatabase;
let server: ServerProcess | undefined;
beforeAll(async () => {
  database = await createTestDatabase(inject("databaseServerUrl"));
});
afterAll(async () => {
  await server?.dispose();
  await database?.drop();
});

const LOADED = "Provider SDKs loaded ahead of the first run";

describe("provider SDKs at start", () => {
  it("are loaded after a start with a stored connection, before any run, and only those of its kind", async () => {
    const organization = await database.db.organization.create({ data: { name: "Acme" } });
    // The key is never opened here: loading the SDK needs only the connection's kind.
    await database.db.providerConnection.create({
      data: { organizationId: organization.id, kind: "openai_compatible", name: "Local models", baseUrl: "http://127.0.0.1:9/v1", apiKeySealed: "unopened", apiKeyLast4: "0000" },
    });

    server = await startServerProcess({ ...sharedServicesEnv(database.url), LOG_FORMAT: "json" });
    await server.printed((output) => output.includes(LOADED));
    const line = server.output().split("\n").find((text) => text.includes(LOADED))!;
    // The HTTP client the SDK calls through too; not the Anthropic SDK, which no connection calls through.
    expect(JSON.parse(line)).toMatchObject({ modules: ["openai", "undici"], msg: `${LOADED}: openai, undici` });
    expect(await database.db.promptRun.count()).toBe(0);
  });
});
