// The local model provider of `npm run bench -- run`: the tests' fake provider (OpenAI's streamed chat
// completions), in a process of its own as a self-hosted model server would be, so its work shares no
// event loop with the server's or the measuring client's. Forked by scripts/bench/run.ts; how it answers
// arrives as JSON in FAKE_ANSWER ({ firstTokenDelayMs, chunkDelayMs, repeat }); it sends its base URL
// and key back once it listens. A message of the same shape later changes how the next calls are
// answered (the bench measures a paced provider, then one answering at once, in the same run); it is
// acknowledged with a message back, so the bench sends no call before the change holds.
import { startFakeProvider } from "@promptly/api/testing/fake-provider";

const provider = await startFakeProvider();
Object.assign(provider.answer, JSON.parse(process.env.FAKE_ANSWER ?? "{}"));
process.send?.({ openaiBaseUrl: provider.openaiBaseUrl, apiKey: provider.apiKey });
process.on("message", (message) => {
  Object.assign(provider.answer, message);
  process.send?.({ answer: provider.answer });
});
// It records every call (for the tests): forgotten here, so its memory stays flat over a long run.
setInterval(() => provider.calls.splice(0), 1_000).unref();
process.on("SIGTERM", () => void provider.close().then(() => process.exit(0)));
