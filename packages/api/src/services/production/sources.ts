// What each way in sends, read into generation patches and score drafts: OpenTelemetry spans (the
// GenAI conventions, Langfuse's `langfuse.*` attributes, Promptly's `promptly.prompt.*`) and the
// Langfuse v3 batch's events. The attribute names and their precedence follow Langfuse's own reading,
// so a team moving from Langfuse sees the same figures.
import { DomainError } from "../../errors.ts";
import {
  INGEST_MSG, langfuseGenerationBody, langfuseScoreBody, langfuseTraceBody, scoreValueOf, type LangfuseGenerationBody, type LangfuseScoreBody, type ScoreDataType,
} from "@promptly/shared";
import type { GenerationPatch, ScoreDraft } from "./ingest.ts";
import { MAX_ATTRIBUTES, plainValue, type KeyValue, type HeldOtlpRequest } from "./otlp.ts";

/** Every attribute a span (or its resource) is read for: the others are never converted, nor decoded from protobuf. */
const SPAN_ATTRIBUTES = [
  "langfuse.observation.prompt.name", "langfuse.observation.prompt.version", "langfuse.prompt.name", "langfuse.prompt.version", "promptly.prompt.name", "promptly.prompt.version",
  "langfuse.observation.usage_details", "langfuse.observation.cost_details", "langfuse.observation.level", "langfuse.observation.status_message",
  "langfuse.observation.model.name", "langfuse.observation.completion_start_time", "langfuse.observation.input", "langfuse.observation.output",
  "langfuse.environment", "langfuse.user.id", "langfuse.session.id", "user.id", "session.id", "deployment.environment.name", "deployment.environment",
  "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "gen_ai.usage.cost",
  "gen_ai.request.model", "gen_ai.response.model", "gen_ai.conversation.id", "gen_ai.input.messages", "gen_ai.output.messages",
] as const;
type SpanAttribute = (typeof SPAN_ATTRIBUTES)[number];
export const SPAN_ATTRIBUTES_READ: ReadonlySet<string> = new Set(SPAN_ATTRIBUTES);

const HEX_TRACE = /^[0-9a-f]{32}$/;
const HEX_SPAN = /^[0-9a-f]{16}$/;

const first = <T>(...values: (T | undefined)[]) => values.find((value) => value !== undefined);
const asText = (value: unknown) => (typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : undefined);
const asInt = (value: unknown) => {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? Math.round(number) : undefined;
};
const asNumber = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const parseJson = (value: unknown): unknown => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
};
const asDate = (value: unknown): Date | undefined => {
  // Langfuse's SDK sends the completion start JSON-stringified (quotes included).
  const text = typeof value === "string" && value.startsWith('"') ? parseJson(value) : value;
  if (typeof text !== "string" && typeof text !== "number") return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
};
const nanosToDate = (nanos: string | number | undefined): Date | undefined => {
  if (nanos === undefined || nanos === null || nanos === "" || nanos === "0" || nanos === 0) return undefined;
  try {
    const big = BigInt(typeof nanos === "number" ? Math.round(nanos) : nanos);
    // Milliseconds with their fraction: a latency under a millisecond is still one.
    return new Date(Number(big / 1000n) / 1000);
  } catch {
    return undefined;
  }
};

/** Usage in any shape Langfuse takes (its own keys, OpenAI's chat or responses usage): input and output tokens. */
function tokensOf(usage: Record<string, unknown> | undefined): { input?: number; output?: number } {
  if (!usage) return {};
  return {
    input: asInt(first(usage["input"], usage["input_tokens"], usage["prompt_tokens"], usage["promptTokens"])),
    output: asInt(first(usage["output"], usage["output_tokens"], usage["completion_tokens"], usage["completionTokens"])),
  };
}

/** A cost map's total: `total` when sent, else the sum of its parts; undefined when it holds no number. */
function costOf(cost: Record<string, unknown> | undefined): number | undefined {
  if (!cost) return undefined;
  const total = asNumber(cost["total"]);
  if (total !== undefined) return total;
  const parts = Object.values(cost).map(asNumber).filter((value): value is number => value !== undefined);
  return parts.length ? parts.reduce((sum, value) => sum + value, 0) : undefined;
}

const objectOf = (value: unknown) => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/**
 * What one OTLP request holds: its generations (spans naming a prompt) and how many spans named none.
 * `request` is of the OTLP shape (its type says so): the protobuf reader's, or a JSON body held to it by otlpRequestOf.
 */
export function generationsFromOtlp(request: HeldOtlpRequest, receivedAt: Date): { generations: GenerationPatch[]; dropped: number } {
  const generations: GenerationPatch[] = [];
  let dropped = 0;
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributeMap(resourceSpans?.resource?.attributes);
    for (const scopeSpans of resourceSpans?.scopeSpans ?? []) {
      for (const span of scopeSpans?.spans ?? []) {
        const traceId = String(span.traceId ?? "").toLowerCase();
        const spanId = String(span.spanId ?? "").toLowerCase();
        if (!HEX_TRACE.test(traceId)) throw new DomainError("INVALID", INGEST_MSG.badId("traceId"));
        if (!HEX_SPAN.test(spanId)) throw new DomainError("INVALID", INGEST_MSG.badId("spanId"));
        const startedAt = nanosToDate(span.startTimeUnixNano);
        if (!startedAt) throw new DomainError("INVALID", INGEST_MSG.badTime);
        const a = attributeMap(span.attributes);
        const promptName = asText(first(a.get("langfuse.observation.prompt.name"), a.get("promptly.prompt.name"), a.get("langfuse.prompt.name")));
        if (!promptName) {
          dropped++;
          continue;
        }
        const version = asInt(first(a.get("langfuse.observation.prompt.version"), a.get("promptly.prompt.version"), a.get("langfuse.prompt.version")));
        const usage = objectOf(parseJson(a.get("langfuse.observation.usage_details")));
        const tokens = usage
          ? tokensOf(usage)
          : { input: asInt(first(a.get("gen_ai.usage.input_tokens"), a.get("gen_ai.usage.prompt_tokens"))), output: asInt(first(a.get("gen_ai.usage.output_tokens"), a.get("gen_ai.usage.completion_tokens"))) };
        const cost = costOf(objectOf(parseJson(a.get("langfuse.observation.cost_details")))) ?? asNumber(a.get("gen_ai.usage.cost"));
        const level = asText(a.get("langfuse.observation.level"));
        const failed = level === "ERROR" || (level === undefined && span.status?.code === 2);
        const environment = asText(
          first(a.get("langfuse.environment"), a.get("deployment.environment.name"), a.get("deployment.environment"), resource.get("langfuse.environment"),
            resource.get("deployment.environment.name"), resource.get("deployment.environment")),
        );
        generations.push({
          observationId: spanId,
          traceId,
          source: "otel",
          promptName,
          version: version ?? null,
          model: asText(first(a.get("langfuse.observation.model.name"), a.get("gen_ai.response.model"), a.get("gen_ai.request.model"))),
          environment,
          startedAt,
          endedAt: nanosToDate(span.endTimeUnixNano),
          completionStartAt: asDate(a.get("langfuse.observation.completion_start_time")),
          inputTokens: tokens.input,
          outputTokens: tokens.output,
          cost,
          status: failed ? "error" : "ok",
          errorMessage: failed ? asText(first(a.get("langfuse.observation.status_message"), span.status?.message)) : undefined,
          userRef: asText(first(a.get("langfuse.user.id"), a.get("user.id"))),
          sessionRef: asText(first(a.get("langfuse.session.id"), a.get("session.id"), a.get("gen_ai.conversation.id"))),
          input: first(a.get("langfuse.observation.input"), a.get("gen_ai.input.messages")),
          output: first(a.get("langfuse.observation.output"), a.get("gen_ai.output.messages")),
          seenAt: receivedAt,
        });
      }
    }
  }
  return { generations, dropped };
}

/** The attributes read, wherever they stand among the others, MAX_ATTRIBUTES of them at most (as the protobuf reader keeps them). */
function attributeMap(attributes: KeyValue[] | undefined): Map<SpanAttribute, unknown> {
  const map = new Map<SpanAttribute, unknown>();
  let kept = 0;
  for (const attribute of attributes ?? []) {
    if (kept >= MAX_ATTRIBUTES) break;
    if (!attribute || !SPAN_ATTRIBUTES_READ.has(attribute.key)) continue;
    kept += 1;
    map.set(attribute.key as SpanAttribute, plainValue(attribute.value));
  }
  return map;
}

/** One Langfuse batch event's outcome: read (its patch or score), ignored (a kind Promptly keeps nothing of) or refused. */
export type LangfuseEventOutcome =
  | { id: string; kind: "generation"; patch: GenerationPatch }
  | { id: string; kind: "trace"; traceId: string; userId?: string; sessionId?: string; environment?: string }
  | { id: string; kind: "score"; score: ScoreDraft }
  | { id: string; kind: "ignored" }
  | { id: string; kind: "refused"; message: string; error: unknown };

/** What a key sends of one score, from Langfuse's body or /api/v1's: what it judges and its value. */
export interface SentScore {
  name: string;
  value: number | string | boolean;
  dataType?: LangfuseScoreBody["dataType"] | ScoreDataType;
  comment?: string;
  id?: string;
  generationId?: string;
  runId?: string;
  traceId?: string;
  observationId?: string;
  environment?: string;
}

/**
 * The start of the score ids online evaluation gives its verdicts (`online:<generation>:<assertion>`,
 * evaluations/online.ts), written once each (a repeat of an id does nothing): a key's score of such an id
 * would take the verdict's place, so a key may not send one.
 */
export const ONLINE_SCORE_ID_PREFIX = "online:";

/**
 * A key's score as a draft (`mustExist`: refused when what it judges is not found, as /api/v1 answers), or
 * why it is refused and the field refused (its id or its value).
 */
export function scoreDraftOf(sent: SentScore, apiKeyId: string, mustExist = false): ScoreDraft | { message: string; field: "id" | "value" } {
  if (sent.id?.startsWith(ONLINE_SCORE_ID_PREFIX)) return { message: INGEST_MSG.reservedScoreId(ONLINE_SCORE_ID_PREFIX), field: "id" };
  const value = scoreValueOf(sent.value, sent.dataType);
  if (!value.ok) return { message: value.message, field: "value" };
  return {
    name: sent.name, dataType: value.dataType, value: value.value, stringValue: value.stringValue, comment: sent.comment, source: "api", apiKeyId,
    externalId: sent.id, generationId: sent.generationId, runId: sent.runId, traceId: sent.traceId, observationId: sent.observationId,
    environment: sent.environment, ...(mustExist ? { mustExist } : {}),
  };
}

/** Reads one event of Langfuse's batch ingestion. */
export function readLangfuseEvent(event: { id: string; type: string; timestamp?: string; body: Record<string, unknown> }, apiKeyId: string, receivedAt: Date): LangfuseEventOutcome {
  const seenAt = asDate(event.timestamp) ?? receivedAt;
  switch (event.type) {
    case "generation-create":
    case "generation-update":
    case "observation-create":
    case "observation-update": {
      // A plain observation (span, event) names no prompt: accepted, nothing kept.
      if (event.type.startsWith("observation") && event.body["type"] !== "GENERATION") return { id: event.id, kind: "ignored" };
      const parsed = langfuseGenerationBody.safeParse(event.body);
      if (!parsed.success) return { id: event.id, kind: "refused", message: "Invalid request data", error: parsed.error.issues };
      return { id: event.id, kind: "generation", patch: generationFromLangfuse(parsed.data, seenAt) };
    }
    case "trace-create": {
      const parsed = langfuseTraceBody.safeParse(event.body);
      if (!parsed.success) return { id: event.id, kind: "refused", message: "Invalid request data", error: parsed.error.issues };
      return { id: event.id, kind: "trace", traceId: parsed.data.id, userId: parsed.data.userId, sessionId: parsed.data.sessionId, environment: parsed.data.environment };
    }
    case "score-create": {
      const parsed = langfuseScoreBody.safeParse(event.body);
      if (!parsed.success) return { id: event.id, kind: "refused", message: "Invalid request data", error: parsed.error.issues };
      const score = scoreDraftOf(parsed.data, apiKeyId);
      if ("message" in score) return { id: event.id, kind: "refused", message: score.message, error: score.message };
      return { id: event.id, kind: "score", score };
    }
    default:
      return { id: event.id, kind: "ignored" };
  }
}

function generationFromLangfuse(body: LangfuseGenerationBody, seenAt: Date): GenerationPatch {
  const usage = body.usageDetails ?? body.usage;
  const tokens = tokensOf(usage);
  const level = body.level;
  return {
    observationId: body.id,
    source: "langfuse",
    traceId: body.traceId,
    promptName: body.promptName,
    version: body.promptName !== undefined ? (body.promptVersion ?? null) : undefined,
    model: body.model,
    environment: body.environment,
    startedAt: body.startTime,
    endedAt: body.endTime,
    completionStartAt: body.completionStartTime,
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    cost: costOf(body.costDetails) ?? (body.usage ? asNumber(body.usage["totalCost"]) : undefined),
    status: level === undefined ? undefined : level === "ERROR" ? "error" : "ok",
    errorMessage: level === "ERROR" ? body.statusMessage : undefined,
    input: body.input,
    output: body.output,
    seenAt,
  };
}
