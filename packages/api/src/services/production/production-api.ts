// The ways in for production signals: an OTLP trace request, a Langfuse v3 ingestion batch, a Langfuse
// score and a score of /api/v1 (a person's thumbs in the app: thumbs.ts). Each reads what was sent and refuses a
// malformed request as a whole (nothing written). The tracing SDKs' requests (OTLP, ingestion batches)
// are answered once appended (acceptProduction: durable, merged in batches right after); a score,
// whose answer says its id and link, is written (ingestProduction) before it answers.
import type { Db } from "@promptly/db";
import { INGEST_MSG, type RuntimeScoreInput, type langfuseIngestionInput, type langfuseScoreBody } from "@promptly/shared";
import type { z } from "zod";
import { DomainError } from "../../errors.ts";
import { allowOrFail, authorize } from "../access/authorize.ts";
import type { KeyCaller } from "../access/visibility.ts";
import { productionIngested } from "../platform/metrics.ts";
import { acceptProduction, ingestProduction, type GenerationPatch, type ScoreDraft } from "./ingest.ts";
import { decodeOtlpProtobuf, otlpEncodingOf, otlpRequestOf, parseOtlpJson } from "./otlp.ts";
import { SPAN_ATTRIBUTES_READ, generationsFromOtlp, readLangfuseEvent, scoreDraftOf } from "./sources.ts";

/**
 * An OTLP/HTTP trace request's body, JSON or protobuf by its Content-Type (already inflated): its spans
 * naming a prompt become generations. Answers the encoding read, the one the answer is sent in.
 */
export async function ingestOtlpTraces(db: Db, caller: KeyCaller, body: Buffer, contentType: string, now: Date): Promise<{ encoding: "json" | "protobuf" }> {
  allowOrFail(authorize(caller, "production.ingest"));
  const encoding = otlpEncodingOf(contentType);
  if (!encoding) throw new DomainError("INVALID", INGEST_MSG.unsupportedType);
  // The protobuf reader builds the OTLP shape itself; only a JSON body is held to it.
  const request = encoding === "protobuf" ? decodeOtlpProtobuf(body, SPAN_ATTRIBUTES_READ) : otlpRequestOf(parseOtlpJson(body));
  const { generations, dropped } = generationsFromOtlp(request, now);
  await acceptProduction(db, caller, { generations, scores: [] }, { source: "otel", dropped });
  return { encoding };
}

/**
 * A Langfuse v3 ingestion batch: generations merged by their body id (in any order, repeated), traces'
 * user and session handed to their generations, scores (a repeat of a score id is a no-op). Answered
 * as Langfuse answers: each event's envelope id with 201, or with 400 and why.
 */
export async function ingestLangfuseBatch(db: Db, caller: KeyCaller, input: z.output<typeof langfuseIngestionInput>, now: Date) {
  allowOrFail(authorize(caller, "production.ingest"));
  const outcomes = input.batch.map((event) => readLangfuseEvent(event, caller.apiKey.id, now));
  const traces = new Map<string, { userId?: string; sessionId?: string; environment?: string }>();
  for (const outcome of outcomes) if (outcome.kind === "trace") traces.set(outcome.traceId, { ...traces.get(outcome.traceId), ...definedOnly(outcome) });
  const generations: GenerationPatch[] = [];
  const scores: ScoreDraft[] = [];
  for (const outcome of outcomes) {
    if (outcome.kind === "generation") {
      const trace = outcome.patch.traceId ? traces.get(outcome.patch.traceId) : undefined;
      generations.push({
        ...outcome.patch,
        userRef: trace?.userId,
        sessionRef: trace?.sessionId,
        environment: outcome.patch.environment ?? trace?.environment,
      });
    }
    if (outcome.kind === "score") scores.push(outcome.score);
  }
  // A repeated score id inside one batch is one score.
  const seen = new Set<string>();
  const uniqueScores = scores.filter((score) => !score.externalId || (!seen.has(score.externalId) && seen.add(score.externalId)));
  await acceptProduction(db, caller, { generations, scores: uniqueScores }, { source: "langfuse", dropped: 0 });
  return {
    successes: outcomes.filter((outcome) => outcome.kind !== "refused").map((outcome) => ({ id: outcome.id, status: 201 })),
    errors: outcomes.flatMap((outcome) => (outcome.kind === "refused" ? [{ id: outcome.id, status: 400, message: outcome.message, error: outcome.error }] : [])),
  };
}

function definedOnly(trace: { userId?: string; sessionId?: string; environment?: string }) {
  return Object.fromEntries(Object.entries({ userId: trace.userId, sessionId: trace.sessionId, environment: trace.environment }).filter(([, value]) => value !== undefined));
}

/** Langfuse's POST /api/public/scores: one score; its id answered (a repeat of its id answers the stored one). */
export async function createLangfuseScore(db: Db, caller: KeyCaller, body: z.output<typeof langfuseScoreBody>) {
  allowOrFail(authorize(caller, "production.ingest"));
  const score = scoreDraftOf(body, caller.apiKey.id);
  // A refused id is named as Langfuse names a field its schema refuses; a refused value is answered as before.
  if ("message" in score) throw new DomainError("INVALID", score.message, undefined, score.field === "id" ? [{ path: "id", message: score.message }] : undefined);
  const result = await ingestProduction(db, caller, caller.apiKey.teamId, { generations: [], scores: [score] });
  productionIngested.inc({ source: "langfuse", result: "score" }, result.scores.filter((item) => item.inserted).length);
  return { id: result.scores[0]!.id };
}

/** POST /api/v1/scores: a score on a generation (by id, or by trace and observation id) or a run the key's team reads. */
export async function createApiScore(db: Db, caller: KeyCaller, input: RuntimeScoreInput) {
  allowOrFail(authorize(caller, "production.ingest"));
  const score = scoreDraftOf(input, caller.apiKey.id, true);
  if ("message" in score) throw new DomainError("INVALID", score.message, undefined, [{ path: score.field, message: score.message }]);
  const result = await ingestProduction(db, caller, caller.apiKey.teamId, { generations: [], scores: [score] });
  productionIngested.inc({ source: "api", result: "score" }, result.scores.filter((item) => item.inserted).length);
  return { id: result.scores[0]!.id, linked: result.scores[0]!.linked };
}
