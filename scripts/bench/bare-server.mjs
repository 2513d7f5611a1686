// The bare side: a plain node:http server answering each scenario with the bytes our server answered
// it (status, headers, body), from memory: what serving those bytes costs with nothing else done.
// Started as its own process by scripts/bench/index.ts; answers arrive as JSON in BENCH_ANSWERS.
import { createServer } from "node:http";

const answers = JSON.parse(process.env.BENCH_ANSWERS ?? "[]").map((answer) => ({ ...answer, body: Buffer.from(answer.body, "base64") }));
const server = createServer((req, res) => {
  const answer = answers[Number(req.url.slice("/s/".length))];
  if (!answer) return void res.writeHead(404).end();
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
