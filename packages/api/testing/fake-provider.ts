// A model provider for the tests: one local HTTP server that speaks OpenAI's API (`/v1/models`,
// `/v1/chat/completions`) and Anthropic's (`/v1/models`, `/v1/messages`) as their documentation
// describes them: the same paths, headers, JSON bodies, server-sent events and error bodies. The app's
// provider client (the official SDKs) talks to it exactly as to the real services. Which key it accepts,
// how slowly it starts an answer and which errors it gives are the test's to set.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeProviderOptions {
  /** The one key it accepts (Authorization: Bearer; Anthropic's x-api-key too). */
  apiKey?: string;
  models?: string[];
}

interface RecordedCall {
  protocol: "openai" | "anthropic";
  path: string;
  body: unknown;
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>/v1`: an OpenAI(-compatible) connection's base URL. */
  openaiBaseUrl: string;
  /** `http://127.0.0.1:<port>`: an Anthropic connection's base URL (the SDK adds /v1). */
  anthropicBaseUrl: string;
  apiKey: string;
  calls: RecordedCall[];
  /** The next answers fail with this HTTP status (401, 429, 500…), until set back to null. */
  failWith: number | null;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : null;
}

const OPENAI_ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  401: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" },
  429: { message: "Rate limit reached for requests.", type: "requests", code: "rate_limit_exceeded" },
  500: { message: "The server had an error while processing your request.", type: "server_error", code: null },
};
const ANTHROPIC_ERRORS: Record<number, { type: string; message: string }> = {
  401: { type: "authentication_error", message: "invalid x-api-key" },
  429: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" },
  500: { type: "api_error", message: "Internal server error" },
};

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const apiKey = options.apiKey ?? "sk-test-provider-key-0001";
  const models = options.models ?? ["gpt-4o-mini", "claude-haiku-4-5", "local-llama"];
  const calls: RecordedCall[] = [];
  const state = { failWith: null as number | null };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      // Anthropic's API requires the anthropic-version header on every request.
      const anthropic = req.headers["anthropic-version"] !== undefined;
      const body = req.method === "POST" ? await readBody(req) : null;
      calls.push({ protocol: anthropic ? "anthropic" : "openai", path: url.pathname, body });
      const fail = (status: number) =>
        anthropic
          ? json(res, status, { type: "error", error: ANTHROPIC_ERRORS[status] ?? { type: "api_error", message: `status ${status}` } })
          : json(res, status, { error: OPENAI_ERRORS[status] ?? { message: `status ${status}`, type: "server_error", code: null } });

      // OpenAI: Authorization: Bearer. Anthropic: x-api-key, or Authorization: Bearer (what its SDK sends now).
      const given = (anthropic && req.headers["x-api-key"]) || req.headers.authorization?.replace(/^Bearer /, "");
      if (given !== apiKey) return fail(401);
      if (state.failWith) return fail(state.failWith);

      if (req.method === "GET" && url.pathname === "/v1/models") {
        if (anthropic) {
          return json(res, 200, {
            data: models.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-01-01T00:00:00Z" })),
            has_more: false,
            first_id: models[0] ?? null,
            last_id: models.at(-1) ?? null,
          });
        }
        return json(res, 200, { object: "list", data: models.map((id) => ({ id, object: "model", created: 1_767_225_600, owned_by: "test" })) });
      }
      return json(res, 404, anthropic ? { type: "error", error: { type: "not_found_error", message: "Not found" } } : { error: { message: "Not found", type: "invalid_request_error", code: null } });
    })().catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    anthropicBaseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    calls,
    get failWith() {
      return state.failWith;
    },
    set failWith(status: number | null) {
      state.failWith = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
