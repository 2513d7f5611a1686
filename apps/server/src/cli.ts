// Admin commands: npm run cli -- grant-super-user <email>
import { createDb } from "@promptly/db";
import { normalizeEmail } from "@promptly/shared";
import { ConfigError, loadEnv } from "./env.ts";
import { startEmbeddedPostgres } from "./embedded.ts";
import { migrate } from "@promptly/db/migrate";

const USAGE = "usage: npm run cli -- grant-super-user <email> | revoke-super-user <email>";

async function main() {
  const [command, email] = process.argv.slice(2);
  if ((command !== "grant-super-user" && command !== "revoke-super-user") || !email) {
    console.error(USAGE);
    process.exit(2);
  }
  const env = loadEnv();
  let stop = async () => {};
  let url = env.DATABASE_URL;
  if (!url) {
    const embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.EMBEDDED_POSTGRES_PORT });
    url = embedded.url;
    stop = embedded.service.stop;
  }
  await migrate(url);
  const db = createDb({ url, max: 1 });
  try {
    const user = await db.user.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } });
    if (!user) {
      console.error(`No account with the email ${email}.`);
      process.exitCode = 1;
      return;
    }
    const superUser = command === "grant-super-user";
    await db.profile.upsert({ where: { userId: user.id }, create: { userId: user.id, superUser }, update: { superUser } });
    console.log(`${email} is ${superUser ? "now" : "no longer"} a super user.`);
  } finally {
    await db.$disconnect();
    await stop();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
