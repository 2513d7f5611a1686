/** The session setting every connection of ours starts with (the startup packet: no extra round trip). */
const UTC_SESSION = "-c TimeZone=UTC";

/**
 * A connection's settings with its session in UTC, whatever the database or its server is set to (a
 * self-hosted PostgreSQL is often left at its machine's local time). A Date sent as a parameter goes
 * without its offset and is read in the session's zone, and date_trunc, ::date and the rollups' hours
 * and days are cut there: in any other zone instants were misread. The URL's own `options` are kept
 * (node-postgres lets the URL's override the config's, so they are joined into it).
 */
export function utcSessions(url: string): { connectionString: string; options?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options: UTC_SESSION };
  }
  const given = parsed.searchParams.get("options");
  if (given === null) return { connectionString: url, options: UTC_SESSION };
  parsed.searchParams.set("options", `${given} ${UTC_SESSION}`);
  return { connectionString: parsed.toString() };
}
