// The snippets that fetch one prompt from code, for this server's address, the prompt's name and a label.
// Each matches the route it calls: /api/v1 (curl, @promptly/client), /api/public (the Langfuse SDKs) and /api/mcp.

interface Snippet {
  id: string;
  title: string;
  description: string;
  code: string;
}

/** The runtime API's URL of the prompt under that label (a name's folders stay plain, as the route takes them). */
const promptUrl = (base: string, name: string, label: string) =>
  `${base}/api/v1/prompts/${name.split("/").map(encodeURIComponent).join("/")}?label=${encodeURIComponent(label)}`;

export function snippets(base: string, name: string, label: string): Snippet[] {
  const quoted = JSON.stringify(name);
  const labelText = JSON.stringify(label);
  return [
    {
      id: "curl",
      title: "curl",
      description: "The runtime API with a team API key.",
      code: `curl -H "Authorization: Bearer $PROMPTLY_API_KEY" \\\n  "${promptUrl(base, name, label)}"`,
    },
    {
      id: "client",
      title: "TypeScript (@promptly/client)",
      description: "The typed client: caches the prompt and compiles it against its variable contract.",
      code: [
        `import { createPromptClient } from "@promptly/client";`,
        ``,
        `const promptly = createPromptClient({ url: ${JSON.stringify(base)}, apiKey: process.env.PROMPTLY_API_KEY! });`,
        `const prompt = await promptly.get(${quoted}, { label: ${labelText} });`,
        `const compiled = prompt.compile({ /* variables */ });`,
      ].join("\n"),
    },
    {
      id: "langfuse-ts",
      title: "TypeScript (Langfuse SDK)",
      description: "@langfuse/client (or langfuse v3): set the base URL and the key pair; the secret key is a Promptly API key, the public key its pk-lf- half.",
      code: [
        `// LANGFUSE_BASE_URL=${base}`,
        `// LANGFUSE_PUBLIC_KEY=pk-lf-…  LANGFUSE_SECRET_KEY=promptly_…`,
        `import { LangfuseClient } from "@langfuse/client";`,
        ``,
        `const langfuse = new LangfuseClient();`,
        `const prompt = await langfuse.prompt.get(${quoted}, { label: ${labelText} });`,
        `const text = prompt.compile({ /* variables */ });`,
      ].join("\n"),
    },
    {
      id: "langfuse-py",
      title: "Python (Langfuse SDK)",
      description: "langfuse for Python: the same base URL and key pair, from the environment.",
      code: [
        `# LANGFUSE_HOST=${base}`,
        `# LANGFUSE_PUBLIC_KEY=pk-lf-…  LANGFUSE_SECRET_KEY=promptly_…`,
        `from langfuse import Langfuse`,
        ``,
        `langfuse = Langfuse()`,
        `prompt = langfuse.get_prompt(${quoted}, label=${labelText})`,
        `text = prompt.compile()`,
      ].join("\n"),
    },
    {
      id: "mcp",
      title: "MCP client",
      description: "For Claude Code, Cursor or VS Code: its getPrompt tool fetches this prompt by name and label.",
      code: JSON.stringify({ mcpServers: { promptly: { type: "http", url: `${base}/api/mcp`, headers: { Authorization: "Bearer promptly_…" } } } }, null, 2),
    },
  ];
}
