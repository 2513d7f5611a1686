// Run against a started server:  npm run example:health -w @promptly/client  (PROMPTLY_URL overrides the URL)
import { createClient } from "../src/index.ts";

const client = createClient({ url: process.env.PROMPTLY_URL ?? "http://localhost:3000" });
const health = await client.health.check.query();
console.log(JSON.stringify(health));
if (health.status !== "ok") process.exitCode = 1;
