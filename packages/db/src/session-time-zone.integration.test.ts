// Every connection of the client reads and writes instants in UTC, whatever time zone the database
// (or its server) is set to: a Date sent as a query parameter carries no offset and is read in the
// session's zone, and date_trunc, ::date and the like cut days and hours there. A database set to
// Asia/Kolkata (+05:30) stands for a self-hosted PostgreSQL left at its machine's local time.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { createDb, type Db } from "./index.ts";
import { createTestDatabase, type TestDatabase } from "../testing/database.ts";

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase(inject("databaseServerUrl"));
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const name = (await admin.query<{ name: string }>("SELECT current_database() AS name")).rows[0]!.name;
  await admin.query(`ALTER DATABASE "${name}" SET TIME ZONE 'Asia/Kolkata'`);
  await admin.end();
  db = createDb({ url: database.url, max: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe("the client's sessions", () => {
  it("are in UTC in a database set to another time zone", async () => {
    const [zone] = await db.$queryRaw<{ zone: string }[]>`SELECT current_setting('TimeZone') AS zone`;
    expect(zone!.zone).toBe("UTC");
  });

  it("read a Date parameter as the instant it is, and cut its hour and day in UTC", async () => {
    const at = new Date(Date.UTC(2026, 11, 6, 20, 45));
    const [row] = await db.$queryRaw<{ same: boolean; hour: Date; day: string }[]>`
      SELECT ${at}::timestamptz = '2026-12-06T20:45:00Z'::timestamptz AS same,
             date_trunc('hour', ${at}::timestamptz) AS hour, (${at}::timestamptz)::date::text AS day`;
    expect(row).toEqual({ same: true, hour: new Date(Date.UTC(2026, 11, 6, 20)), day: "2026-12-06" });
  });

  it("keep the options a database URL gives", async () => {
    const url = new URL(database.url);
    url.searchParams.set("options", "-c application_name=promptly-test");
    const other = createDb({ url: url.toString(), max: 1 });
    try {
      const [row] = await other.$queryRaw<{ zone: string; name: string }[]>`SELECT current_setting('TimeZone') AS zone, current_setting('application_name') AS name`;
      expect(row).toEqual({ zone: "UTC", name: "promptly-test" });
    } finally {
      await other.$disconnect();
    }
  });
});
