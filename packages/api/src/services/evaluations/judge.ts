// A judged assertion: its rubric, the case's expected output and the run's output, put to the
// assertion's connection and model with a fixed instruction asking for `{"pass": true|false, "reason": "..."}`.
// The connection must be the prompt's organization's and open to its team (the run rule,
// allowTeamConnection). The answer is read tolerantly (a fenced block, words around the object); an
// answer that says no verdict is a failure that says so, as is a provider's refusal.
import type { Db } from "@promptly/db";
import { judgeAnswerLimitMs, type Assertion } from "@promptly/shared";
import type { ApiConfig } from "../types.ts";
import { allowModel, allowTeamConnection, findRunConnection, openRunConnection } from "../models/connections.ts";
import { describeProviderError, failureMayPass, providerTimedOut, streamModelAnswer } from "../models/provider-client.ts";
import type { Judge, RunFacts } from "./assertions.ts";

type Config = Pick<ApiConfig, "secret" | "allowPrivateProviderUrls" | "providerTimeoutMs">;

/** How much of the judge's answer a failure quotes. */
const QUOTE_MAX = 200;
/** A judge answers in a sentence or two. */
const JUDGE_MAX_TOKENS = 400;

const JUDGE_INSTRUCTION = [
  "You are a strict evaluator of a language model's output.",
  "Decide whether the OUTPUT satisfies the RUBRIC. The EXPECTED answer, when given, is a reference, not a requirement unless the rubric says so.",
  'Answer with one JSON object and nothing else: {"pass": true or false, "reason": "one or two sentences saying why"}.',
].join("\n");

const judgeRequest = (rubric: string, output: string, expected: string | null | undefined) =>
  [`RUBRIC:\n${rubric}`, ...(expected != null ? [`EXPECTED:\n${expected}`] : []), `OUTPUT:\n${output}`].join("\n\n");

/** The messages a judgement sends. */
const judgeMessages = (assertion: Assertion, facts: RunFacts) => [
  { role: "system" as const, content: JUDGE_INSTRUCTION },
  { role: "user" as const, content: judgeRequest(assertion.value ?? "", facts.output, facts.expected) },
];

/** Tokens a chat request's framing may add to its text: per message, and once to start the answer. */
const FRAMING_TOKENS = 16;

/** How much of a judge's answer is searched for its verdict: its first 64 KiB (a verdict is a sentence or two, first in the answer). */
const VERDICT_SEARCH_CHARS = 64 * 1024;
/** How many of its objects' starts are tried at most (each is one pass over the text after it). */
const VERDICT_CANDIDATES_MAX = 128;

/**
 * Where the JSON object that starts at `start` (a `{`) ends, one past its closing brace, braces inside
 * its strings (escapes respected) not counted; -1 when it does not end in `text`.
 */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 0x5c) at++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b) depth++;
    else if (code === 0x7d && --depth === 0) return at + 1;
  }
  return -1;
}

/**
 * The verdict in a judge's answer: the first JSON object in it with a boolean `pass` (a fenced block or
 * words around it allowed). Each `{` is parsed once, up to its matching `}` (a valid object can end
 * nowhere else), so a judged text that steers the judge into braces costs linear work per start, and
 * at most VERDICT_CANDIDATES_MAX starts in the first VERDICT_SEARCH_CHARS of the answer.
 */
function readVerdict(answer: string): { pass: boolean; reason: string } | null {
  const text = answer.slice(0, VERDICT_SEARCH_CHARS);
  let tried = 0;
  for (let start = text.indexOf("{"); start !== -1 && tried < VERDICT_CANDIDATES_MAX; start = text.indexOf("{", start + 1), tried++) {
    const end = objectEnd(text, start);
    if (end < 0) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.slice(start, end));
    } catch {
      continue;
    }
    if (!parsed || typeof parsed !== "object") continue;
    const { pass, reason } = parsed as { pass?: unknown; reason?: unknown };
    const verdict = typeof pass === "boolean" ? pass : pass === "true" ? true : pass === "false" ? false : null;
    if (verdict === null) continue;
    return { pass: verdict, reason: typeof reason === "string" && reason.trim() ? reason.trim() : verdict ? "The judge passed it without a reason" : "The judge failed it without a reason" };
  }
  return null;
}

const quote = (text: string) => JSON.stringify(text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text);

/** The tokens one judgement took, as the provider reported them (what online evaluation prices against its daily cap). */
export interface JudgeUsage {
  model: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * What became of one judgement's call, told once per judgement: not sent (refused before the provider
 * was asked: it cost nothing), answered (the provider's tokens), or failed once sent (what the provider
 * counted is unknown: the caller must assume the worst).
 */
export type JudgeCall = { sent: false } | { sent: true; usage: JudgeUsage } | { sent: true; usage: null };

/**
 * The most tokens one judgement can take, known before it is asked: every byte of its request a token
 * (byte-level tokenizers, OpenAI's and Anthropic's among them, put at least one byte in each), the chat
 * framing's, and the whole answer the judge is allowed. What online evaluation holds against its cap.
 */
export function judgeUsageBound(assertion: Assertion, facts: RunFacts): JudgeUsage {
  const messages = judgeMessages(assertion, facts);
  const bytes = messages.reduce((sum, message) => sum + Buffer.byteLength(message.content, "utf8"), 0);
  return { model: assertion.model ?? "", inputTokens: bytes + FRAMING_TOKENS * (messages.length + 1), outputTokens: JUDGE_MAX_TOKENS };
}

/**
 * The judge of a prompt's cases: runs each rubric on the assertion's connection and model, within the
 * prompt's organization and team. `onCall` hears what became of each judgement's call (JudgeCall): not
 * sent when refused before the provider (no connection or model, the connection unusable or its key
 * unreadable), else answered with its tokens or failed. `onNoAnswer` hears each judgement whose failure is no verdict of
 * the judge's but its absence (refused before the provider, or the provider failing for a while: out of time, unreachable,
 * 408, 409, 429, 5xx): a caller that can ask again later (online evaluation) records nothing for it; an answer that holds
 * no verdict is the judge's, and a refusal of the call itself (another 4xx) would come again: neither is told.
 */
export function createJudge(deps: {
  db: Db; config: Config; organizationId: string; teamId: string; onCall?: (call: JudgeCall) => void; onNoAnswer?: () => void;
}): Judge {
  return async (assertion, facts) => {
    const unsent = (reason: string) => {
      deps.onCall?.({ sent: false });
      deps.onNoAnswer?.();
      return { pass: false, reason };
    };
    if (!assertion.connectionId || !assertion.model) return unsent("A judged assertion needs a connection and a model to judge with");
    const row = await findRunConnection(deps.db, assertion.connectionId);
    try {
      allowTeamConnection(row, deps);
      allowModel(row, assertion.model);
    } catch (error) {
      return unsent(`The judge's connection cannot be used: ${(error as Error).message}`);
    }
    let connection: ReturnType<typeof openRunConnection>;
    try {
      connection = openRunConnection(deps.config, row);
    } catch (error) {
      // A key sealed under another app secret (APP_SECRET changed) opens for no judgement: said as a run's evaluation says it.
      return unsent(`The judge's connection cannot be used: ${(error as Error).message}`);
    }
    let answer = "";
    // Providers report usage cumulatively (Anthropic in two events): the last figure of each is the call's.
    const usage: JudgeUsage = { model: assertion.model, inputTokens: 0, outputTokens: 0 };
    let usageTold = false;
    const timeoutMs = deps.config.providerTimeoutMs ?? 60_000;
    // The SDK's timeout ends at the answer's headers: the whole answer gets twice it (within the job's
    // expiry, queue.ts), so a provider that keeps the stream open (comments, keep-alives) cannot hold the
    // judgement, or its job, forever.
    const answerLimitMs = judgeAnswerLimitMs(timeoutMs);
    const limit = AbortSignal.timeout(answerLimitMs);
    try {
      const pieces = streamModelAnswer(
        connection,
        { allowPrivate: deps.config.allowPrivateProviderUrls ?? false, timeoutMs, signal: limit },
        {
          model: assertion.model,
          input: { type: "chat", messages: judgeMessages(assertion, facts) },
          parameters: { temperature: 0, maxTokens: JUDGE_MAX_TOKENS },
        },
      );
      for await (const piece of pieces) {
        if (piece.type === "text") answer += piece.text;
        if (piece.type === "usage") {
          usageTold = true;
          usage.inputTokens = piece.inputTokens ?? usage.inputTokens;
          usage.outputTokens = piece.outputTokens ?? usage.outputTokens;
        }
      }
      // An SDK may end its stream quietly on the abort: the answer is cut, not whole.
      if (limit.aborted) throw limit.reason;
    } catch (error) {
      // The provider may have counted tokens before it failed (or the answer was cut): unknown, so said as such.
      deps.onCall?.({ sent: true, usage: null });
      const failure = limit.aborted ? providerTimedOut(connection, answerLimitMs) : describeProviderError(error, connection, { timeoutMs, model: assertion.model });
      // Only a failure that may pass is no answer (asked again later): a refusal of this very call (its size, the
      // key, the model) would be paid for again on every try, so it stands as the judgement's failure.
      if (limit.aborted || failureMayPass(error, failure)) deps.onNoAnswer?.();
      return { pass: false, reason: `The judge could not answer: ${failure.message}` };
    }
    // A provider that told no usage (one that ignores stream_options.include_usage): what it counted is unknown, so the worst is assumed.
    deps.onCall?.({ sent: true, usage: usageTold ? usage : null });
    return readVerdict(answer) ?? { pass: false, reason: `The judge's answer gave no verdict (expected {"pass": true|false, "reason": "..."}): ${quote(answer.trim())}` };
  };
}
