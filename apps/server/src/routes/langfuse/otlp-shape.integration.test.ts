// An OTLP JSON body is held to the OTLP shape at the door (the protobuf reader builds that shape itself,
// so only JSON is checked): a body of another shape is refused whole with the 400 the SDKs log, nothing kept.
import { afterAll, beforeAll, expect, it } from "vitest";
import { ingestSettled } from "@promptly/api";
import { Prisma } from "@promptly/db";
import { INGEST_MSG } from "@promptly/shared";
import { basicAuth, startKeyServer, type KeyServer } from "../../../test/key-server.ts";
import { storedGenerations } from "../../../test/stored-generations.ts";

let ks: KeyServer;

beforeAll(async () => {
  ks = await startKeyServer();
});
afterAll(async () => {
  await ks?.close();
});

it("refuses an OTLP JSON body whose lists or objects are not where they go with 400, and keeps nothing of it", async () => {
  const teamId = await ks.team("OTLP shape");
  await ks.prompt(teamId, "shape", [{ template: "Hi" }]);
  const key = await ks.key(teamId, { scopes: ["read", "ingest"] });
  const send = async (body: unknown) => {
    const response = await fetch(`${ks.server.base}/api/public/otel/v1/traces`, {
      method: "POST", headers: { authorization: basicAuth(key), "content-type": "application/json" }, body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const span = (spanId: string, extra: Record<string, unknown> = {}) => ({
    traceId: "0af7651916cd43dd8448eb211c80319c", spanId, startTimeUnixNano: String(BigInt(Date.now()) * 1_000_000n),
    attributes: [{ key: "promptly.prompt.name", value: { stringValue: "shape" } }], ...extra,
  });
  const request = (...spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
  for (const body of [
    { resourceSpans: "x" },
    { resourceSpans: [{ scopeSpans: [{ spans: {} }] }] },
    request(span("a100000000000001", { attributes: [{ key: "promptly.prompt.name", value: "shape" }] })),
    request(span("a100000000000002"), span("a100000000000003", { status: "error" })),
  ]) {
    expect(await send(body), JSON.stringify(body)).toEqual({ status: 400, body: { message: INGEST_MSG.notOtlp, error: "InvalidRequestError" } });
  }
  expect(await send(request(span("a100000000000004")))).toEqual({ status: 200, body: {} });
  await ingestSettled(ks.app.services.db);
  expect((await storedGenerations(ks.h.services.db, Prisma.sql`team_id = ${teamId}::uuid`)).map((row) => row.observationId)).toEqual(["a100000000000004"]);
});
