// `npm run cli -- eval <name> [--label <label> | --version <n>] [--min-pass <0-100>] [--junit <file>]
// [--url <url>] [--key <key>]`: a pipeline step. Starts an evaluation of the prompt on a running server
// (POST /api/v1/prompts/{name}/evaluations with an API key of `run` scope), follows it (GET
// /api/v1/evaluations/{id}) printing a line per change (a bar on a terminal), prints the summary,
// writes JUnit XML when asked (GET /api/v1/evaluations/{id}/items), and exits:
//   0  the evaluation finished, every case ran, and every version it ran passes at least --min-pass % of
//      its cases (or no --min-pass);
//   1  a version passes fewer;
//   2  it could not be told: bad arguments, the server's refusal (a bad key, an unknown prompt: its
//      message is printed), an unreachable server, an evaluation that failed or was cancelled, or one
//      with cases that could not run (how many, and the first one's reason, are printed).
import { writeFile } from "node:fs/promises";
import { z } from "zod";
import { EVALUATION_MSG, evaluationItemsAnswer, evaluationSummary } from "@promptly/shared";
import { junitXml } from "./junit.ts";

export const EVAL_USAGE =
  "       npm run cli -- eval <prompt name> [--label <label> | --version <n>] [--min-pass <0-100>] [--junit <file>] [--url <server url>] [--key <API key>]\n" +
  "                  (--url and --key default to PROMPTLY_URL and PROMPTLY_API_KEY)";

export interface EvalOptions {
  name: string;
  label?: string;
  version?: number;
  minPass?: number;
  junit?: string;
  url: string;
  key: string;
  /** How often the evaluation is asked for its progress. */
  pollMs: number;
}

const VALUE_OPTIONS = ["--label", "--version", "--min-pass", "--junit", "--url", "--key", "--poll-ms"] as const;

/** The options of `eval ...`, or what is wrong with them. */
export function parseEvalArgs(args: string[], env: Record<string, string | undefined>): { ok: true; options: EvalOptions } | { ok: false; message: string } {
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    if ((VALUE_OPTIONS as readonly string[]).includes(arg)) {
      const value = args[++at];
      if (value === undefined || value.startsWith("--")) return { ok: false, message: `${arg} needs a value` };
      values.set(arg, value);
    } else if (arg.startsWith("--")) return { ok: false, message: `Unknown option ${arg}` };
    else positional.push(arg);
  }
  if (positional.length !== 1) return { ok: false, message: "Name one prompt to evaluate" };
  if (values.has("--label") && values.has("--version")) return { ok: false, message: "Give --label or --version, not both" };
  const number = (option: string, min: number, max: number) => {
    const text = values.get(option);
    if (text === undefined) return { ok: true as const, value: undefined };
    const value = Number(text);
    return Number.isFinite(value) && value >= min && value <= max ? { ok: true as const, value } : { ok: false as const, message: `${option} is a number from ${min} to ${max}` };
  };
  const version = number("--version", 1, Number.MAX_SAFE_INTEGER);
  const minPass = number("--min-pass", 0, 100);
  const pollMs = number("--poll-ms", 10, 60_000);
  for (const parsed of [version, minPass, pollMs]) if (!parsed.ok) return parsed;
  if (version.value !== undefined && !Number.isInteger(version.value)) return { ok: false, message: "--version is a whole number" };
  const url = values.get("--url") ?? env.PROMPTLY_URL;
  const key = values.get("--key") ?? env.PROMPTLY_API_KEY;
  if (!url) return { ok: false, message: "Give the server's URL: --url or PROMPTLY_URL" };
  if (!key) return { ok: false, message: "Give an API key with the run scope: --key or PROMPTLY_API_KEY" };
  try {
    new URL(url);
  } catch {
    return { ok: false, message: `The server's URL is not a URL: ${url}` };
  }
  return {
    ok: true,
    options: {
      name: positional[0]!,
      label: values.get("--label"),
      version: version.value,
      minPass: minPass.value,
      junit: values.get("--junit"),
      url: url.replace(/\/+$/, ""),
      key,
      pollMs: pollMs.value ?? 1_000,
    },
  };
}

/** What the command needs of an evaluation's summary (the REST answer has more, dates as text). */
const summarySchema = evaluationSummary.pick({ id: true, status: true, total: true, done: true, failed: true, errors: true, firstError: true, versions: true });
type Summary = z.infer<typeof summarySchema>;

const errorAnswer = z.object({ error: z.object({ message: z.string() }) });

class EvalError extends Error {}

export interface EvalIo {
  out(line: string): void;
  err(line: string): void;
  /** A terminal: progress is one bar redrawn in place (else a line per change). */
  tty: boolean;
  write(text: string): void;
  sleep(ms: number): Promise<void>;
}

async function call<T>(options: EvalOptions, method: "GET" | "POST", path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${options.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${options.key}`, accept: "application/json", ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new EvalError(`Could not reach the server at ${options.url}${cause ? ` (${cause})` : ""}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EvalError(`The server answered ${method} ${path} with ${response.status} and no JSON`);
  }
  if (!response.ok) {
    const refusal = errorAnswer.safeParse(json);
    throw new EvalError(refusal.success ? `${refusal.data.error.message} (${response.status})` : `The server answered ${response.status}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new EvalError(`The server's answer to ${method} ${path} is not what this command understands`);
  return parsed.data;
}

const BAR_WIDTH = 30;

function progressText(summary: Summary): string {
  const remaining = Math.max(0, summary.total - summary.done - summary.errors);
  return `${summary.status}: ${summary.done} done (${summary.failed} failed), ${summary.errors} could not run, ${remaining} remaining of ${summary.total}`;
}

function bar(summary: Summary): string {
  const filled = summary.total ? Math.round(((summary.done + summary.errors) / summary.total) * BAR_WIDTH) : 0;
  return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${progressText(summary)}`;
}

const ENDED = new Set(["done", "failed", "cancelled"]);

const figure = (value: number | null, unit: string) => (value === null ? "unknown" : `${value}${unit}`);

/** Runs the command; answers its exit code. */
export async function runEval(options: EvalOptions, io: EvalIo): Promise<number> {
  try {
    const start = options.version !== undefined ? { version: options.version } : options.label !== undefined ? { label: options.label } : {};
    let summary = await call(options, "POST", `/prompts/${encodeURIComponent(options.name)}/evaluations`, summarySchema, start);
    io.out(`Evaluation ${summary.id} of ${options.name}: ${summary.total} runs (${summary.versions.map((version) => `v${version.version}`).join(", ")})`);
    let shown = "";
    for (;;) {
      const text = io.tty ? bar(summary) : progressText(summary);
      if (text !== shown) {
        if (io.tty) io.write(`\r${text}`);
        else io.out(text);
        shown = text;
      }
      if (ENDED.has(summary.status)) break;
      await io.sleep(options.pollMs);
      summary = await call(options, "GET", `/evaluations/${encodeURIComponent(summary.id)}`, summarySchema);
    }
    if (io.tty) io.write("\n");
    for (const version of summary.versions) {
      const rate = version.passRate === null ? "no case judged" : `${version.passRate} % passed`;
      const notRun = version.errors ? `, ${EVALUATION_MSG.casesCouldNotRun(version.errors)}` : "";
      io.out(`v${version.version}: ${rate}${notRun}, p50 ${figure(version.p50Ms, " ms")}, ${version.tokens} tokens, cost ${version.cost === null ? "unknown" : `$${version.cost}`}`);
    }
    if (options.junit) {
      const { items } = await call(options, "GET", `/evaluations/${encodeURIComponent(summary.id)}/items`, evaluationItemsAnswer);
      await writeFile(options.junit, junitXml(options.name, summary.id, summary.versions, items));
      io.out(`JUnit XML written to ${options.junit}`);
    }
    if (summary.status !== "done") {
      io.err(`The evaluation ${summary.status === "failed" ? "failed" : "was cancelled"} before it finished.`);
      return 2;
    }
    // A case that could not run says nothing of the prompt: the evaluation is no pass, whatever the rate.
    if (summary.errors > 0) {
      io.err(`${EVALUATION_MSG.casesCouldNotRun(summary.errors)}: ${summary.firstError ?? "no reason given"}`);
      return 2;
    }
    if (options.minPass === undefined) return 0;
    const below = summary.versions.filter((version) => version.passRate === null || version.passRate < options.minPass!);
    if (below.length) {
      io.err(`Below the required ${options.minPass} %: ${below.map((version) => `v${version.version} at ${version.passRate ?? 0} %`).join(", ")}.`);
      return 1;
    }
    io.out(`Every version passes at least ${options.minPass} % of the cases.`);
    return 0;
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    io.err(error.message);
    return 2;
  }
}
