// The published client, as a stranger gets it: `npm pack` of the build, installed from the tarball into
// a new project outside the workspace, and an example type-checked against its bundled declarations
// (a wrong call is refused, so the check is real) and run.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packClient } from "../scripts/pack.ts";

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const work = mkdtempSync(join(tmpdir(), "promptly-client-pack-"));
const project = join(work, "project");

const EXAMPLE = `import { compile, createPromptClient, PromptlyApiError, type Prompt, type PromptClient } from "@promptly/client";

const promptly: PromptClient = createPromptClient({ url: "http://localhost:3000", apiKey: "promptly_example", cacheTtlSeconds: 30 });
export async function greet(): Promise<string> {
  try {
    const prompt: Prompt = await promptly.get("support/reply", { label: "production" });
    const compiled = prompt.compile({ customer: "Ann" });
    return "text" in compiled ? compiled.text : compiled.messages.map((message) => ("role" in message ? message.content : \`(\${message.name} goes here)\`)).join("\\n");
  } catch (error) {
    if (error instanceof PromptlyApiError) return \`\${error.status} \${error.code}\`;
    throw error;
  }
}
const result = compile({ type: "text", template: "Hello {{ name }}", variables: [] }, { name: "Ann" });
console.log(result.ok && "text" in result ? result.text : "no text");
`;

describe("the packed client", () => {
  beforeAll(async () => {
    const tarball = await packClient(work);
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "stranger", private: true, type: "module" }));
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], noEmit: true, skipLibCheck: false }, files: ["example.ts", "wrong.ts"] }),
    );
    // Its one dependency (zod) comes from npm's cache when it is there: the install works offline after `npm ci`.
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", tarball], { cwd: project });
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("installs as a package of its own: JavaScript and one bundled declaration file, no workspace package named", () => {
    const manifest = JSON.parse(readFileSync(join(project, "node_modules/@promptly/client/package.json"), "utf8"));
    expect(manifest.exports).toEqual({ ".": { types: "./index.d.ts", default: "./index.js" } });
    expect(Object.keys(manifest.dependencies)).toEqual(["zod"]);
    const declarations = readFileSync(join(project, "node_modules/@promptly/client/index.d.ts"), "utf8");
    expect(declarations).toContain("export declare function createPromptClient(options: PromptClientOptions): PromptClient;");
    expect(declarations).not.toMatch(/@promptly\/|AppRouter/);
  });

  it("type-checks an example against it, and refuses a wrong one", async () => {
    // One compile of both files (the declarations of zod take seconds to check): the example has no
    // error, and the one error is the wrong call's.
    writeFileSync(join(project, "example.ts"), EXAMPLE);
    writeFileSync(join(project, "wrong.ts"), EXAMPLE.replace("cacheTtlSeconds: 30", 'cacheTtlSeconds: "30"'));
    const output = await run(process.execPath, [tsc, "-p", "."], { cwd: project }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(output.trim().split("\n").filter((line) => /error TS/.test(line))).toEqual([
      expect.stringMatching(/^wrong\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/),
    ]);
  });

  it("runs: the compile of the package answers as the library's, and its webhook check refuses a forged signature", async () => {
    writeFileSync(
      join(project, "run.mjs"),
      `import { compile, verifyWebhookSignature } from "@promptly/client";\n` +
        `const result = compile({ type: "text", template: "Hello {{ name }}", variables: [] }, { name: "Ann" });\n` +
        `console.log(result.text, verifyWebhookSignature("whsec_x", "t=1,v1=00", "{}"));\n`,
    );
    const { stdout } = await run(process.execPath, ["run.mjs"], { cwd: project });
    expect(stdout.trim()).toBe("Hello Ann false");
  });
});
