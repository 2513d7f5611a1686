// Admin commands: npm run cli -- grant-super-user <email>
import { createDb } from "@promptly/db";
import { setSuperUser } from "@promptly/api";
import { APP_ROLES, normalizeEmail } from "@promptly/shared";
import { ConfigError, loadEnv } from "./env.ts";
import { embeddedPostgresUrl, startEmbeddedPostgres } from "./embedded.ts";
import { migrate } from "@promptly/db/migrate";
import pg from "pg";

/** The stored app roles; super user is a flag of its own (grant-super-user). */
const STORED_ROLES = APP_ROLES.filter((role) => role !== "super-user");
const USAGE = [
  "usage: npm run cli -- grant-super-user <email>",
  "       npm run cli -- revoke-super-user <email>",
  `       npm run cli -- set-role <email> ${STORED_ROLES.join("|")}`,
].join("\n");

async function main() {
  const [command, email, role] = process.argv.slice(2);
  const known = command === "grant-super-user" || command === "revoke-super-user" || command === "set-role";
  if (!known || !email || (command === "set-role" && !STORED_ROLES.includes(role as never))) {
    console.error(USAGE);
    process.exit(2);
  }
  const env = loadEnv();
  let stop = async () => {};
  let url = env.DATABASE_URL;
  if (!url) {
    // The embedded database may already be running under `npm start`: use it rather than start a second one.
    const running = embeddedPostgresUrl(env.EMBEDDED_POSTGRES_PORT);
    const probe = new pg.Client({ connectionString: running, connectionTimeoutMillis: 1000 });
    const reachable = await probe.connect().then(() => true, () => false);
    await probe.end().catch(() => undefined);
    if (reachable) url = running;
    else {
      const embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.EMBEDDED_POSTGRES_PORT });
      url = embedded.url;
      stop = embedded.service.stop;
    }
  }
  let db: ReturnType<typeof createDb> | undefined;
  try {
    await migrate(url);
    db = createDb({ url, max: 1 });
    const user = await db.user.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } });
    if (!user) {
      console.error(`No account with the email ${email}.`);
      process.exitCode = 1;
      return;
    }
    if (command === "set-role") {
      const appRole = role as Exclude<(typeof APP_ROLES)[number], "super-user">;
      await db.userRole.upsert({ where: { userId: user.id }, create: { userId: user.id, role: appRole }, update: { role: appRole } });
      console.log(`${email} now has the app role ${appRole}.`);
      return;
    }
    const superUser = command === "grant-super-user";
    await setSuperUser(db, user.id, superUser, new Date());
    console.log(`${email} is ${superUser ? "now" : "no longer"} a super user.`);
  } finally {
    await db?.$disconnect();
    await stop();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
