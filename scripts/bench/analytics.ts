// `npm run bench -- analytics`: analytics.overview over 10 million usage rows
// spanning 90 days, with 1 client, beside the Express + pg baseline running the same SQL. Target: p99
// under 100 ms. How: the overview reads prompt_usage_daily (prompt, UTC day, label), kept by a trigger
// on prompt_usage (migration usage_rollup), by index-only scans of (prompt_id, day, label, count); the
// prompts in scope come first (the visibility rule on the organization's prompts), so the work is
// the organization's prompts × days × labels, whatever the number of keys, versions and other
// organizations in the table; and the sums per prompt and day and per label and day are made in SQL,
// so the answer's rows are the prompts (each with its days as one list), not prompts × days × labels.
//
// The data: 40 organizations × 5 teams × 51 prompts (10,200 prompts; 255 per organization), each
// fetched every day of the last 90 through 11 (version, key, label) combinations: 10,098,000 rows of
// prompt_usage. The measured caller is an organization admin of one organization (255 prompts).
import type { Benchmark, Scenario } from "./types.ts";

const ORGANIZATIONS = 40;
const TEAMS = 5;
const PROMPTS_PER_TEAM = 51;
const DAYS = 90;
const ADMIN = "bench-analytics@bench.test";

/** The (version, key number, label) a prompt is fetched with every day: 11 usage rows per prompt and day. */
const COMBINATIONS = [
  [1, 1, "production"], [1, 2, "production"], [1, 3, "production"], [1, 4, "production"],
  [2, 1, "staging"], [2, 2, "staging"], [2, 3, "staging"],
  [1, 1, ""], [2, 1, ""], [2, 2, ""], [2, 4, "latest"],
] as const;

/** The overview's queries as the server runs them for an organization admin (services/analytics.ts), for the baseline. */
function overviewSql(organizationId: string, userId: string, days: number) {
  const scope = `SELECT p.id FROM prompts p
      LEFT JOIN team_members my_tm ON my_tm.team_id = p.team_id AND my_tm.user_id = '${userId}'::uuid
      LEFT JOIN organization_members my_om ON my_om.organization_id = p.organization_id AND my_om.user_id = '${userId}'::uuid
      WHERE p.organization_id = '${organizationId}'::uuid AND p.archived_at IS NULL
        AND (CASE p.visibility
          WHEN 'private' THEN p.author_id IS NOT DISTINCT FROM '${userId}'::uuid
            AND (COALESCE(my_om.role::text IN ('admin'), FALSE) OR COALESCE(my_tm.role::text IN ('admin', 'editor', 'viewer'), FALSE))
          WHEN 'team' THEN (COALESCE(my_om.role::text IN ('admin'), FALSE) OR COALESCE(my_tm.role::text IN ('admin', 'editor', 'viewer'), FALSE))
          ELSE (COALESCE(my_om.role::text IN ('admin'), FALSE) OR COALESCE(my_tm.role::text IN ('admin', 'editor', 'viewer'), FALSE)) OR my_om.role IS NOT NULL END)`;
  const from = `((now() AT TIME ZONE 'UTC')::date - ${days - 1})`;
  const to = `(now() AT TIME ZONE 'UTC')::date`;
  return [
    {
      sql: `SELECT p.id::text AS id, p.name, p.title, t.name AS "teamName", l.version AS "productionVersion",
                   p.rating_average AS "ratingAverage", p.rating_count AS "ratingCount", p.bookmark_count AS bookmarks,
                   (SELECT max(u.day) FROM prompt_usage_daily u WHERE u.prompt_id = p.id) AS "lastFetched"
            FROM prompts p JOIN teams t ON t.id = p.team_id
            LEFT JOIN prompt_labels l ON l.prompt_id = p.id AND l.name = 'production'
            WHERE p.id IN (${scope}) ORDER BY p.name`,
    },
    {
      sql: `SELECT u.prompt_id::text AS "promptId", string_agg(u.n::text || '@' || u.day::text, ',') AS daily
            FROM (SELECT prompt_id, day, sum(count) AS n FROM prompt_usage_daily
                  WHERE prompt_id IN (${scope}) AND day BETWEEN ${from} AND ${to}
                  GROUP BY prompt_id, day HAVING sum(count) <> 0) u
            GROUP BY u.prompt_id`,
    },
    {
      sql: `SELECT day, label, sum(count)::bigint AS count FROM prompt_usage_daily
            WHERE prompt_id IN (${scope}) AND day BETWEEN ${from} AND ${to} GROUP BY day, label HAVING sum(count) <> 0`,
    },
    {
      sql: `SELECT date_trunc('week', v.created_at AT TIME ZONE 'UTC')::date AS week, count(*)::bigint AS count FROM prompt_versions v
            WHERE v.prompt_id IN (${scope}) AND v.created_at >= ${from}::timestamp AT TIME ZONE 'UTC' GROUP BY 1 ORDER BY 1`,
    },
    { sql: `SELECT r.stars::int AS stars, count(*)::bigint AS count FROM prompt_ratings r WHERE r.prompt_id IN (${scope}) GROUP BY r.stars` },
    {
      sql: `SELECT CASE WHEN b.created_at >= ${from}::timestamp AT TIME ZONE 'UTC' THEN (b.created_at AT TIME ZONE 'UTC')::date END AS day,
                   count(*)::bigint AS count FROM prompt_bookmarks b WHERE b.prompt_id IN (${scope}) GROUP BY 1`,
    },
  ];
}

export const benchmark: Benchmark = {
  description: `analytics.overview over ${((ORGANIZATIONS * TEAMS * PROMPTS_PER_TEAM * DAYS * COMBINATIONS.length) / 1e6).toFixed(1)} million usage rows (${DAYS} days), 1 client`,
  warmup: 2,
  async seed({ db, createAccount, log }) {
    const admin = await createAccount(ADMIN, { fullName: "Analytics Admin" });
    await db.query(`INSERT INTO organizations (name, updated_at) SELECT 'Org ' || lpad(g::text, 2, '0'), now() FROM generate_series(1, $1) g`, [ORGANIZATIONS]);
    await db.query(`INSERT INTO teams (name, organization_id, updated_at) SELECT 'Team ' || t, o.id, now() FROM organizations o, generate_series(1, $1) t`, [TEAMS]);
    await db.query(`INSERT INTO organization_members (organization_id, user_id, role) SELECT id, $1, 'admin' FROM organizations WHERE name = 'Org 01'`, [admin]);
    await db.query(
      `INSERT INTO prompts (organization_id, team_id, name, title, tags, visibility, author_id, latest_version, rating_average, rating_count, bookmark_count)
       SELECT t.organization_id, t.id, 'folder/prompt-' || g, 'Prompt ' || g, '{bench}', 'team', $1, 2, 4.2, 5, 3
       FROM teams t, generate_series(1, $2) g`,
      [admin, PROMPTS_PER_TEAM],
    );
    await db.query(
      `INSERT INTO prompt_versions (prompt_id, version, type, template, author_id, created_at)
       SELECT p.id, v, 'text', 'Hello {{ name }}, version ' || v, $1, now() - make_interval(days => 100 - v * 40) FROM prompts p, generate_series(1, 2) v`,
      [admin],
    );
    await db.query(`INSERT INTO prompt_labels (prompt_id, name, version) SELECT id, 'production', 1 FROM prompts UNION ALL SELECT id, 'staging', 2 FROM prompts`);
    await db.query(
      `INSERT INTO api_keys (team_id, name, prefix, key_hash, labels, scopes, created_by)
       SELECT t.id, 'key ' || k, 'promptly_ben', md5(t.id::text || k) || md5(k || t.id::text), '{}', '{read}', $1 FROM teams t, generate_series(1, 4) k`,
      [admin],
    );
    log(`Seeding ${ORGANIZATIONS * TEAMS * PROMPTS_PER_TEAM * DAYS * COMBINATIONS.length} usage rows…`);
    const combinations = COMBINATIONS.map(([version, key, label]) => `(${version}, ${key}, '${label}')`).join(", ");
    // Seeded in bulk with the rollup trigger off, then summed once: the same rows the trigger would keep.
    await db.query(`ALTER TABLE prompt_usage DISABLE TRIGGER prompt_usage_rollup`);
    const { rows: organizations } = await db.query<{ id: string }>(`SELECT id FROM organizations ORDER BY name`);
    for (const organization of organizations) {
      await db.query(
        `INSERT INTO prompt_usage (prompt_id, version, api_key_id, day, label, count)
         SELECT p.id, c.version, k.id, d.day, c.label, 1 + (abs(hashtext(p.id::text || d.day::text || c.label || c.key)) % 200)
         FROM prompts p
         JOIN (SELECT id, team_id, row_number() OVER (PARTITION BY team_id ORDER BY name) AS n FROM api_keys) k ON k.team_id = p.team_id
         JOIN (VALUES ${combinations}) AS c(version, key, label) ON c.key = k.n
         CROSS JOIN (SELECT ((now() AT TIME ZONE 'UTC')::date - g) AS day FROM generate_series(0, ${DAYS - 1}) g) d
         WHERE p.organization_id = $1`,
        [organization.id],
      );
    }
    await db.query(`ALTER TABLE prompt_usage ENABLE TRIGGER prompt_usage_rollup`);
    await db.query(`INSERT INTO prompt_usage_daily (prompt_id, day, label, count) SELECT prompt_id, day, label, sum(count) FROM prompt_usage GROUP BY 1, 2, 3`);
    await db.query(`VACUUM ANALYZE prompt_usage`);
    await db.query(`VACUUM ANALYZE prompt_usage_daily`);
    await db.query(`ANALYZE`);
    const { rows: [counts] } = await db.query<{ usage: string; daily: string }>(
      `SELECT (SELECT count(*) FROM prompt_usage)::text AS usage, (SELECT count(*) FROM prompt_usage_daily)::text AS daily`,
    );
    log(`prompt_usage: ${Number(counts!.usage).toLocaleString("en")} rows; prompt_usage_daily: ${Number(counts!.daily).toLocaleString("en")} rows`);
  },
  async scenarios({ db }) {
    const { rows: [ids] } = await db.query<{ organization_id: string; user_id: string }>(
      `SELECT m.organization_id, m.user_id FROM organization_members m JOIN users u ON u.id = m.user_id WHERE u.email = $1`,
      [ADMIN],
    );
    const overview = (days: number): Scenario => ({
      name: `analytics.overview, ${days} days (255 prompts)`,
      procedure: "analytics.overview",
      input: { organizationId: ids!.organization_id, days },
      as: ADMIN,
      connections: 1,
      gzip: true,
      baseline: overviewSql(ids!.organization_id, ids!.user_id, days),
    });
    return [overview(90), overview(30), overview(7)];
  },
};
