// The local model provider of `npm run bench -- run`: the tests' fake provider (OpenAI's streamed chat
// completions), in a process of its own as a self-hosted model server would be, so its work shares no
// event loop with the server's or the measuring client's. Forked by scripts/bench/run.ts; how it answers
// arrives as JSON in FAKE_ANSWER ({ firstTokenDelayMs, chunkDelayMs, repeat }); it sends its base URL
// and key back once it listens.
import { startFakeProvider } from "@promptly/api/testing/fake-provider";

const provider = await startFakeProvider();
Object.assign(provider.answer, JSON.parse(process.env.FAKE_ANSWER ?? "{}"));
process.send?.({ openaiBaseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
// It records every call (for the tests): forgotten here, so its memory stays flat over a long run.
setInterval(() => provider.calls.splice(0), 1_000).unref();
process.on("SIGTERM", () => void provider.close().then(() => process.exit(0)));
