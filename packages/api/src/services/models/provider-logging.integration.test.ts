// The SDKs print nothing of their own: an event they cannot parse fails the call as any other failure,
// and is not written whole to the process's error output (where it put the prompt's and answer's text in
// the logs, once per bad event). A child process makes the call, so its output is read as a server's would be.
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";

const SECRET = "the-answer-text-4c1f";
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    // An event whose data is not JSON, with the answer's text in it.
    res.end(req.url?.includes("/messages") ? `event: content_block_delta\ndata: {"text": ${SECRET}}\n\n` : `data: {"content": ${SECRET}}\n\n`);
  });
});
let baseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it.each(["openai-compatible", "anthropic"] as const)("%s: an event that is not JSON fails the call, and nothing of it is printed", async (kind) => {
  const client = fileURLToPath(new URL("./provider-client.ts", import.meta.url));
  const connection = { kind, baseUrl: kind === "anthropic" ? baseUrl : `${baseUrl}/v1`, apiKey: "sk-logging-0001" };
  const script = `
    const { streamModelAnswer } = await import(${JSON.stringify(client)});
    try {
      for await (const piece of streamModelAnswer(${JSON.stringify(connection)}, { allowPrivate: true, timeoutMs: 10000 }, { model: "m", input: { type: "text", text: "x" }, parameters: {} }));
      process.stdout.write("ended");
    } catch (error) {
      process.stdout.write("failed: " + error.name);
    }`;
  const child = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(child.stdout).toBe("failed: SyntaxError");
  expect(child.stderr).not.toContain(SECRET);
  // No SDK log line (its parse error printed the event whole); a warning of Node or tsx may stand.
  expect(child.stderr).not.toMatch(/Could not parse|openai|anthropic/i);
});
