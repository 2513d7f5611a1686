// The openai SDK making the run's call to the provider from a bare process, as a product would without
// Promptly: forked by scripts/bench/run.ts, which reads its CPU time per call beside the server's. On a
// machine where waking an idle process is dear (the shared VM: about 70 µs for a bare timer), a
// streamed call's pieces, 5 ms apart, each wake it: that cost is the call's, whoever makes it.
// SDK_CALL: JSON { baseUrl, apiKey, model, text, stream, streams, runsPerStream }; it answers
// { cpuMs, calls, errors } with its CPU time (user + system) over the measured calls, after 10 unmeasured.
import OpenAI from "openai";

const call = JSON.parse(process.env.SDK_CALL!) as {
  baseUrl: string; apiKey: string; model: string; text: string; stream: boolean; streams: number; runsPerStream: number;
};
const client = new OpenAI({ apiKey: call.apiKey, baseURL: call.baseUrl, maxRetries: 0 });
const messages = [{ role: "user" as const, content: call.text }];

async function one(): Promise<string> {
  if (!call.stream) return (await client.chat.completions.create({ model: call.model, messages })).choices[0]?.message.content ?? "";
  let output = "";
  const stream = await client.chat.completions.create({ model: call.model, messages, stream: true, stream_options: { include_usage: true } });
  for await (const chunk of stream) output += chunk.choices[0]?.delta?.content ?? "";
  return output;
}

let errors = 0;
const guarded = () => one().catch(() => void errors++);
for (let i = 0; i < 10; i++) await guarded();
errors = 0;
const before = process.cpuUsage();
await Promise.all(Array.from({ length: call.streams }, async () => {
  for (let run = 0; run < call.runsPerStream; run++) await guarded();
}));
const used = process.cpuUsage(before);
process.send!({ cpuMs: (used.user + used.system) / 1000, calls: call.streams * call.runsPerStream, errors }, () => process.exit(0));
