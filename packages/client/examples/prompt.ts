// Fetches a prompt with an API key and prints it compiled:
//   PROMPTLY_URL=http://localhost:3000 PROMPTLY_API_KEY=promptly_… npm run example -w @promptly/client
// PROMPTLY_PROMPT names the prompt (default support/reply), PROMPTLY_LABEL its label (default production),
// PROMPTLY_VARIABLES its values as JSON (default {"customer":"Ann","topic":"billing"}).
import { createPromptClient, PromptCompileError, PromptlyApiError } from "../src/index.ts";

const apiKey = process.env.PROMPTLY_API_KEY;
if (!apiKey) {
  console.error("Set PROMPTLY_API_KEY to a team API key (Teams page > API keys).");
  process.exit(2);
}
const promptly = createPromptClient({ url: process.env.PROMPTLY_URL ?? "http://localhost:3000", apiKey });
try {
  const prompt = await promptly.get(process.env.PROMPTLY_PROMPT ?? "support/reply", { label: process.env.PROMPTLY_LABEL ?? "production" });
  const compiled = prompt.compile(JSON.parse(process.env.PROMPTLY_VARIABLES ?? '{"customer":"Ann","topic":"billing"}') as Record<string, unknown>);
  console.log("text" in compiled ? compiled.text : compiled.messages.map((m) => ("type" in m ? `(placeholder ${m.name})` : `${m.role}: ${m.content}`)).join("\n"));
} catch (error) {
  if (!(error instanceof PromptlyApiError || error instanceof PromptCompileError)) throw error;
  console.error(`${error.name}${error instanceof PromptlyApiError ? ` ${error.status} ${error.code}` : ""}: ${error.message}`);
  process.exitCode = 1;
}
