// `npm run bench -- prompts`: the prompt library at 1,000 and 100,000 prompts (3 versions each), in
// 10 organizations of 20 teams (200 teams; 100 people, each in 2 teams of their organization). The
// reader is a member of Organization 01 and of 5 of its teams (admin, editor, editor, viewer, viewer).
// Measured: prompts.list (default sort), prompts.list with a search word found in about 6% of the
// prompts, and prompts.get, each with 1 and 10 clients, beside the same SQL in the Express + pg
// baseline. Targets (1 client): p99 under 30 ms for list and get, under 50 ms for search.
import type pg from "pg";
import type { BaselineQuery, Benchmark, Scenario } from "./types.ts";

const SIZES: Record<string, number> = { "1k": 1_000, "100k": 100_000 };
const VERSIONS = 3;
const ORGANIZATIONS = 10;
const TEAMS_PER_ORGANIZATION = 20;
const TEAMS = ORGANIZATIONS * TEAMS_PER_ORGANIZATION;
const PEOPLE_PER_ORGANIZATION = 100;
const MEMBERS_PER_TEAM = 10;
const READER = "bench-reader@bench.test";
/** The reader's roles in the first 5 teams of Organization 01. */
const READER_TEAM_ROLES = ["admin", "editor", "editor", "viewer", "viewer"] as const;
/** A search word: one of 30 subjects, in a title (1 in 30) or a template's second subject (1 in 30). */
const SEARCH = "invoice";

// Words the generated prompts are made of: every part is picked by a hash of the prompt's number, so
// titles, names, tags, descriptions and templates vary and full-text search has real work to do.
const SUBJECTS = [
  "refund", "invoice", "onboarding", "churn", "renewal", "outage", "escalation", "feedback", "contract", "pricing",
  "release", "incident", "interview", "campaign", "newsletter", "proposal", "roadmap", "survey", "warranty", "shipment",
  "subscription", "complaint", "migration", "audit", "budget", "forecast", "handover", "policy", "ticket", "webinar",
];
const TASKS = ["reply", "summary", "email", "checklist", "outline", "review", "translation", "classifier", "extractor", "rewrite", "briefing", "faq", "announcement", "report", "script"];
const TONES = ["friendly", "formal", "concise", "detailed", "empathetic", "persuasive", "neutral", "playful", "technical", "executive"];
const AUDIENCES = ["customers", "engineers", "managers", "partners", "investors", "students", "recruiters", "lawyers"];
const FOLDERS = ["support", "marketing", "engineering", "sales", "legal", "people", "data", "product", "finance", "operations"];
const SUBFOLDERS = ["emails", "replies", "summaries", "reviews", "drafts", "internal", "templates"];
const DEPARTMENTS = ["Support", "Marketing", "Platform", "Sales", "Legal", "People", "Analytics", "Product", "Finance", "Operations"];
const SENTENCES = [
  "Keep the answer under two hundred words and avoid jargon.",
  "Start with a short greeting and thank them for their patience.",
  "List the next steps as numbered bullet points with owners and dates.",
  "Quote the relevant clause verbatim before explaining what it means.",
  "If information is missing, ask one clarifying question instead of guessing.",
  "Highlight risks, blockers and open decisions in a separate section.",
  "Use British spelling and a warm, reassuring voice throughout.",
  "Compare the options in a small table with costs, benefits and timelines.",
  "End with a single call to action and a link to the help centre.",
  "Translate technical terms into plain language a newcomer would understand.",
  "Cite the dashboard metrics: conversion, retention and weekly active users.",
  "Flag anything that could breach privacy regulations such as GDPR.",
  "Summarise the conversation history in three sentences before replying.",
  "Offer a discount code only when the customer mentions cancelling.",
  "Group the feedback by theme and count how often each theme appears.",
  "Write the subject line first, then the preview text, then the body.",
  "Mention the service level agreement and the expected resolution time.",
  "Avoid promises about delivery dates that engineering has not confirmed.",
  "Return valid JSON with the fields category, confidence and rationale.",
  "Suggest two alternative phrasings for the headline and explain the difference.",
];
const COMMITS = ["Tighten the wording", "Add an example", "Fix the variable name", "Shorter answer", "Mention the deadline", "Clearer call to action", "Handle missing data"];
const REVISIONS = [
  "Prefer active voice and short paragraphs.",
  "Include one concrete example from a recent case.",
  "Double-check names, numbers and dates against the source.",
  "Close with a friendly sign-off from {{ agent_name }}.",
  "Do not include internal ticket numbers in the answer.",
];
const MODELS = ["gpt-4o", "gpt-4o-mini", "claude-sonnet-4", "claude-haiku-4", "llama-3.1-70b", "mistral-large"];
const FIRST_NAMES = ["Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemi", "Luca", "Maya", "Nils", "Olga", "Priya"];
const LAST_NAMES = ["Andersen", "Brown", "Costa", "Dubois", "Eze", "Fischer", "Garcia", "Hansen", "Ito", "Jansen", "Kowalski", "Lopez", "Moreau", "Novak"];

/** Seed-time helpers live in their own schema (every pool connection sees them) and go at the end. */
const SEED_SCHEMA = `CREATE SCHEMA bench_seed`;
/** `pick(words, n, salt)` is a word of `words` chosen by a hash of (n, salt). */
const PICK_FUNCTION = `
  CREATE FUNCTION bench_seed.pick(words text[], n int, salt int) RETURNS text LANGUAGE sql IMMUTABLE AS
  $$ SELECT words[1 + (hashint8(n::bigint * 1000 + salt) & 2147483647) % cardinality(words)] $$`;
/** A number 0 .. m-1 from a hash of (n, salt). */
const HASH_FUNCTION = `
  CREATE FUNCTION bench_seed.h(n int, salt int, m int) RETURNS int LANGUAGE sql IMMUTABLE AS
  $$ SELECT (hashint8(n::bigint * 1000 + salt) & 2147483647) % m $$`;

/** The heavy steps run in this many parts at once (`$part` of `$parts`), one connection each. */
const PARTS = 2;

async function seedLibrary(db: pg.Pool, readerId: string, prompts: number, log: (line: string) => void) {
  const step = async (what: string, sql: string, params: unknown[] = [], parts = 1) => {
    const started = Date.now();
    // A step in parts gets two more parameters: how many parts, and which one this is.
    const results = await Promise.all(
      Array.from({ length: parts }, (_, part) => db.query(sql, parts > 1 ? [...params, parts, part] : params)),
    );
    const rows = results.reduce((sum, result) => sum + (result.rowCount ?? 0), 0);
    log(`${what}: ${rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  await db.query(`DROP SCHEMA IF EXISTS bench_seed CASCADE`);
  await db.query(SEED_SCHEMA);
  await db.query(PICK_FUNCTION);
  await db.query(HASH_FUNCTION);

  // People: person p belongs to organization p / 100 (its first person is the organization's admin).
  await step(
    "people",
    `INSERT INTO users (email, email_verified_at, created_at, updated_at)
     SELECT 'person-' || lpad(p::text, 4, '0') || '@bench.test', now(), now(), now() FROM generate_series(0, $1 - 1) p`,
    [ORGANIZATIONS * PEOPLE_PER_ORGANIZATION],
  );
  await db.query(`CREATE UNLOGGED TABLE bench_seed.people AS
    SELECT substr(email, 8, 4)::int AS p, id FROM users WHERE email LIKE 'person-%'`);
  await db.query(
    `INSERT INTO profiles (user_id, full_name, updated_at)
     SELECT id, bench_seed.pick($1, p, 1) || ' ' || bench_seed.pick($2, p, 2), now() FROM bench_seed.people`,
    [FIRST_NAMES, LAST_NAMES],
  );
  await db.query(`INSERT INTO user_roles (user_id, role) SELECT id, 'user' FROM bench_seed.people`);
  await step(
    "organizations",
    `INSERT INTO organizations (name, slug, created_by, created_at, updated_at)
     SELECT 'Organization ' || lpad((o + 1)::text, 2, '0'), 'organization-' || (o + 1),
            (SELECT id FROM bench_seed.people WHERE p = 0), now(), now()
     FROM generate_series(0, $1 - 1) o`,
    [ORGANIZATIONS],
  );
  await db.query(`CREATE UNLOGGED TABLE bench_seed.organizations AS
    SELECT substr(name, 14)::int - 1 AS o, id FROM organizations WHERE name LIKE 'Organization %'`);
  await db.query(
    `INSERT INTO organization_members (organization_id, user_id, role)
     SELECT o.id, pe.id, (CASE WHEN pe.p % $1 = 0 THEN 'admin' ELSE 'member' END)::organization_role
     FROM bench_seed.people pe JOIN bench_seed.organizations o ON o.o = pe.p / $1
     UNION ALL SELECT (SELECT id FROM bench_seed.organizations WHERE o = 0), $2::uuid, 'member'`,
    [PEOPLE_PER_ORGANIZATION, readerId],
  );
  // Team t is team k = t % 20 of organization t / 20, named after a department.
  await step(
    "teams",
    `INSERT INTO teams (name, organization_id, created_by, created_at, updated_at)
     SELECT ($2::text[])[1 + (t % $1) % cardinality($2::text[])] || ' ' || lpad((t + 1)::text, 3, '0'), o.id,
            (SELECT id FROM bench_seed.people WHERE p = o.o * $3), now(), now()
     FROM generate_series(0, $4 - 1) t JOIN bench_seed.organizations o ON o.o = t / $1`,
    [TEAMS_PER_ORGANIZATION, DEPARTMENTS, PEOPLE_PER_ORGANIZATION, TEAMS],
  );
  await db.query(`CREATE UNLOGGED TABLE bench_seed.teams AS
    SELECT right(name, 3)::int - 1 AS t, id, organization_id FROM teams`);
  await db.query(`CREATE UNIQUE INDEX ON bench_seed.teams (t)`);
  // Team k of organization o: the 10 people o*100 + (k*5 + m) % 100, m = 0 admin, 1-4 editors, 5-9 viewers.
  await step(
    "team members",
    `INSERT INTO team_members (team_id, user_id, role)
     SELECT bt.id, pe.id, (CASE WHEN m = 0 THEN 'admin' WHEN m < 5 THEN 'editor' ELSE 'viewer' END)::team_role
     FROM bench_seed.teams bt CROSS JOIN generate_series(0, $3 - 1) m
     JOIN bench_seed.people pe ON pe.p = (bt.t / $1) * $2 + ((bt.t % $1) * 5 + m) % $2
     UNION ALL
     SELECT bt.id, $4::uuid, (($5::text[])[bt.t + 1])::team_role FROM bench_seed.teams bt WHERE bt.t < cardinality($5::text[])`,
    [TEAMS_PER_ORGANIZATION, PEOPLE_PER_ORGANIZATION, MEMBERS_PER_TEAM, readerId, READER_TEAM_ROLES],
  );

  // Bulk load: the prompts' secondary indexes (search, trigram, sort orders) are built once at the end
  // instead of row by row (their definitions are read back, so they are the migration's own).
  const { rows: indexes } = await db.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i JOIN pg_index x ON x.indexrelid = (quote_ident(i.indexname))::regclass
     WHERE i.schemaname = 'public' AND i.tablename IN ('prompts', 'prompt_bookmarks', 'prompt_ratings') AND NOT x.indisunique`,
  );
  for (const index of indexes) await db.query(`DROP INDEX "${index.name}"`);

  // Prompt g lives in team g % 200 as its r = g / 200-th prompt; its author is one of the team's admin
  // or editors (the reader writes 1 in 10 of the prompts of the teams they edit). 15% private, 50% team,
  // 35% organization; 2% archived; 10% chat prompts.
  await step(
    "prompts",
    `INSERT INTO prompts (id, organization_id, team_id, name, title, description, tags, visibility, author_id,
                          latest_version, archived_at, created_at, updated_at)
     SELECT gen_random_uuid(), bt.organization_id, bt.id,
            CASE WHEN bench_seed.h(g, 10, 10) = 0 THEN '' ELSE bench_seed.pick($2, g, 11) || '/' END
              || CASE WHEN bench_seed.h(g, 12, 3) = 0 THEN bench_seed.pick($3, g, 13) || '/' ELSE '' END
              || bench_seed.pick($4, g, 1) || '-' || bench_seed.pick($5, g, 2) || '-' || (g / $1),
            initcap(bench_seed.pick($6, g, 3)) || ' ' || bench_seed.pick($4, g, 1) || ' ' || bench_seed.pick($5, g, 2)
              || ' for ' || bench_seed.pick($7, g, 4),
            'Drafts a ' || bench_seed.pick($6, g, 3) || ' ' || bench_seed.pick($5, g, 2) || ' about a ' || bench_seed.pick($4, g, 1)
              || ' for ' || bench_seed.pick($7, g, 4) || '. ' || bench_seed.pick($8, g, 5),
            CASE bench_seed.h(g, 14, 3)
              WHEN 0 THEN ARRAY[bench_seed.pick($4, g, 1)]
              WHEN 1 THEN ARRAY[bench_seed.pick($4, g, 1), bench_seed.pick($5, g, 2)]
              ELSE ARRAY[bench_seed.pick($4, g, 1), bench_seed.pick($5, g, 2), bench_seed.pick($7, g, 4)] END,
            (CASE WHEN bench_seed.h(g, 6, 20) < 3 THEN 'private' WHEN bench_seed.h(g, 6, 20) < 13 THEN 'team' ELSE 'organization' END)::prompt_visibility,
            CASE WHEN bt.t < $10 AND (g / $1) % 10 = 0 THEN $9::uuid ELSE author.id END,
            $11, CASE WHEN bench_seed.h(g, 7, 50) = 0 THEN stamp.updated END, stamp.created, stamp.updated
     FROM generate_series(0, $12 - 1) g
     JOIN bench_seed.teams bt ON bt.t = g % $1 AND g % $15 = $16
     JOIN bench_seed.people author ON author.p = (bt.t / $13) * $14 + ((bt.t % $13) * 5 + (g / $1) % 5) % $14
     CROSS JOIN LATERAL (
       SELECT now() - make_interval(days => bench_seed.h(g, 8, 365), secs => bench_seed.h(g, 9, 86400)) AS created
     ) c
     CROSS JOIN LATERAL (
       SELECT c.created AS created, LEAST(now(), c.created + make_interval(days => bench_seed.h(g, 15, 30), secs => bench_seed.h(g, 16, 86400))) AS updated
     ) stamp`,
    [
      TEAMS, FOLDERS, SUBFOLDERS, SUBJECTS, TASKS, TONES, AUDIENCES, SENTENCES, readerId,
      READER_TEAM_ROLES.filter((role) => role !== "viewer").length, VERSIONS, prompts, TEAMS_PER_ORGANIZATION, PEOPLE_PER_ORGANIZATION,
    ],
    PARTS,
  );
  // The prompt's number back from its name and team (the name ends with r = g / 200; the team is g % 200).
  await db.query(`CREATE UNLOGGED TABLE bench_seed.prompts AS
    SELECT p.id, substring(p.name FROM '-([0-9]+)$')::int * $1 + bt.t AS g, p.author_id, p.created_at, p.updated_at
    FROM prompts p JOIN bench_seed.teams bt ON bt.id = p.team_id`, [TEAMS]);
  await db.query(`CREATE UNIQUE INDEX ON bench_seed.prompts (g)`);
  // Versions 1..3 (as the API would have saved them: the prompt's latest_version is already 3, so the
  // AFTER INSERT trigger indexes the body of version 3 only, and the search vector follows).
  await step(
    "versions",
    `INSERT INTO prompt_versions (prompt_id, version, type, template, messages, variables, model, config, commit_message, author_id, created_at)
     SELECT bp.id, v, body.type::prompt_type,
            CASE WHEN body.type = 'text' THEN body.text END,
            CASE WHEN body.type = 'chat' THEN jsonb_build_array(
              jsonb_build_object('role', 'system', 'content', 'You are a ' || bench_seed.pick($4, bp.g, 3) || ' assistant.'),
              jsonb_build_object('role', 'user', 'content', body.text)) END,
            '[{"name": "customer_name", "type": "string"}, {"name": "agent_name", "type": "string", "required": false, "default": "the team"}]'::jsonb,
            bench_seed.pick($6, bp.g, 20 + v),
            jsonb_build_object('temperature', round((bench_seed.h(bp.g, 30 + v, 10) / 10.0)::numeric, 1)),
            CASE WHEN v = 1 THEN 'Initial version' ELSE bench_seed.pick($7, bp.g, 40 + v) END,
            bp.author_id,
            bp.created_at + (bp.updated_at - bp.created_at) * (v - 1) / ($8 - 1)
     FROM bench_seed.prompts bp CROSS JOIN generate_series(1, $8) v
     CROSS JOIN LATERAL (
       SELECT CASE WHEN bench_seed.h(bp.g, 17, 10) = 0 THEN 'chat' ELSE 'text' END AS type,
              'You are a ' || bench_seed.pick($4, bp.g, 3) || ' writer. Write a ' || bench_seed.pick($2, bp.g, 2) || ' about the '
                || bench_seed.pick($1, bp.g, 1) || ' of {{ customer_name }} for ' || bench_seed.pick($5, bp.g, 4) || '. '
                || bench_seed.pick($3, bp.g, 50) || ' ' || bench_seed.pick($3, bp.g, 51) || ' '
                || 'Mention the ' || bench_seed.pick($1, bp.g, 52) || ' only where it helps. '
                || bench_seed.pick($3, bp.g, 53 + v) || ' ' || bench_seed.pick($9, bp.g, 60 + v) AS text
     ) body
     WHERE bp.g % $10 = $11`,
    [SUBJECTS, TASKS, SENTENCES, TONES, AUDIENCES, MODELS, COMMITS, VERSIONS, REVISIONS],
    PARTS,
  );
  // Labels: production on 30% (version 2 or 3), staging on 15% (the latest).
  await step(
    "labels",
    `INSERT INTO prompt_labels (prompt_id, name, version, moved_by, moved_at)
     SELECT id, 'production', $1 - bench_seed.h(g, 70, 2), author_id, updated_at FROM bench_seed.prompts WHERE bench_seed.h(g, 71, 10) < 3
     UNION ALL
     SELECT id, 'staging', $1, author_id, updated_at FROM bench_seed.prompts WHERE bench_seed.h(g, 72, 20) < 3`,
    [VERSIONS],
  );
  // Bookmarks and ratings by the team's viewers (never the author); the reader bookmarks 1 in 20 of the
  // prompts of their teams they may read. The counter triggers would update a prompt once per row:
  // they are off for the load, and one UPDATE below sets the counters to what they would have made.
  await db.query(`ALTER TABLE prompt_bookmarks DISABLE TRIGGER prompt_bookmarks_count`);
  await db.query(`ALTER TABLE prompt_ratings DISABLE TRIGGER prompt_ratings_count`);
  await step(
    "bookmarks",
    `INSERT INTO prompt_bookmarks (user_id, prompt_id, created_at)
     SELECT DISTINCT pe.id, bp.id, bp.updated_at
     FROM bench_seed.prompts bp CROSS JOIN generate_series(0, 1) k
     JOIN bench_seed.people pe ON pe.p = ((bp.g % $1) / $2) * $3 + (((bp.g % $1) % $2) * 5 + 5 + bench_seed.h(bp.g, 80 + k, 5)) % $3
     WHERE bench_seed.h(bp.g, 82, 10) < 2 AND (k = 0 OR bench_seed.h(bp.g, 83, 2) = 0)
     UNION ALL
     SELECT $4::uuid, p.id, p.updated_at FROM prompts p JOIN team_members tm ON tm.team_id = p.team_id AND tm.user_id = $4::uuid
     JOIN bench_seed.prompts bp ON bp.id = p.id
     WHERE bench_seed.h(bp.g, 84, 20) = 0 AND (p.visibility <> 'private' OR p.author_id = $4::uuid)`,
    [TEAMS, TEAMS_PER_ORGANIZATION, PEOPLE_PER_ORGANIZATION, readerId],
  );
  await step(
    "ratings",
    `INSERT INTO prompt_ratings (user_id, prompt_id, stars, created_at, updated_at)
     SELECT DISTINCT ON (pe.id, bp.id) pe.id, bp.id, (5 - bench_seed.h(bp.g, 90 + k, 5) * bench_seed.h(bp.g, 93 + k, 2))::smallint, bp.updated_at, bp.updated_at
     FROM bench_seed.prompts bp CROSS JOIN generate_series(0, 2) k
     JOIN bench_seed.people pe ON pe.p = ((bp.g % $1) / $2) * $3 + (((bp.g % $1) % $2) * 5 + 5 + bench_seed.h(bp.g, 96 + k, 5)) % $3
     WHERE bench_seed.h(bp.g, 99, 4) = 0 AND k <= bench_seed.h(bp.g, 100, 3)`,
    [TEAMS, TEAMS_PER_ORGANIZATION, PEOPLE_PER_ORGANIZATION],
  );
  await db.query(`ALTER TABLE prompt_bookmarks ENABLE TRIGGER prompt_bookmarks_count`);
  await db.query(`ALTER TABLE prompt_ratings ENABLE TRIGGER prompt_ratings_count`);
  // The triggers' arithmetic, in one pass (rating_average as prompt_ratings_count computes it).
  await step(
    "counters",
    `UPDATE prompts p SET bookmark_count = COALESCE(b.n, 0), rating_count = COALESCE(r.n, 0), rating_sum = COALESCE(r.total, 0),
            rating_average = CASE WHEN r.n > 0 THEN r.total::float8 / r.n ELSE 0 END
     FROM prompts p0
     LEFT JOIN (SELECT prompt_id, count(*)::int AS n FROM prompt_bookmarks GROUP BY 1) b ON b.prompt_id = p0.id
     LEFT JOIN (SELECT prompt_id, count(*)::int AS n, sum(stars)::int AS total FROM prompt_ratings GROUP BY 1) r ON r.prompt_id = p0.id
     WHERE p.id = p0.id AND (b.n IS NOT NULL OR r.n IS NOT NULL)`,
  );
  const started = Date.now();
  await Promise.all(indexes.map((index) => db.query(index.definition)));
  log(`${indexes.length} indexes built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await db.query(`DROP SCHEMA bench_seed CASCADE`);
}

// ---- the SQL the app runs for each request (after the session lookup), copied from the services ----

/** Like Prisma.sql: `${value}` becomes the next `$n`, so the text and numbering are the app's own. */
function sql(strings: TemplateStringsArray, ...values: unknown[]): BaselineQuery {
  const params: unknown[] = [];
  let text = strings[0]!;
  values.forEach((value, index) => {
    if (value && typeof value === "object" && "sql" in value) {
      const inner = value as BaselineQuery; // a nested fragment: renumber its parameters
      text += inner.sql.replace(/\$(\d+)/g, (_, n: string) => `$${params.length + Number(n)}`);
      params.push(...(inner.params ?? []));
    } else {
      params.push(value);
      text += `$${params.length}`;
    }
    text += strings[index + 1]!;
  });
  return { sql: text, params };
}
const join = (fragments: BaselineQuery[], separator: string) =>
  fragments.reduce((all, fragment, index) => (index === 0 ? fragment : sql`${all}${raw(separator)}${fragment}`));
const raw = (text: string): BaselineQuery => ({ sql: text, params: [] });

/** canSql(caller, "prompt.read", ...) for a plain user: organization admins, or team viewer level and up. */
const teamRead = sql`(COALESCE(my_om.role::text IN (${"admin"}), FALSE) OR COALESCE(my_tm.role::text IN (${join([sql`${"admin"}`, sql`${"editor"}`, sql`${"viewer"}`], ",")}), FALSE))`;

/** promptVisibility(caller) (services/visibility.ts). */
const promptVisibility = (userId: string) => ({
  joins: sql`LEFT JOIN team_members my_tm ON my_tm.team_id = p.team_id AND my_tm.user_id = ${userId}::uuid
      LEFT JOIN organization_members my_om ON my_om.organization_id = p.organization_id AND my_om.user_id = ${userId}::uuid`,
  visible: sql`(CASE p.visibility
      WHEN 'private' THEN p.author_id IS NOT DISTINCT FROM ${userId}::uuid AND ${teamRead}
      WHEN 'team' THEN ${teamRead}
      ELSE ${teamRead} OR my_om.role IS NOT NULL END)`,
});

/** itemColumns / itemJoins of services/prompts.ts. */
const itemColumns = (userId: string) => sql`
  p.id::text AS id, p.team_id::text AS "teamId", t.name AS "teamName", p.name, p.title, p.description, p.tags,
  p.visibility::text AS visibility, lv.type::text AS type, p.latest_version AS "latestVersion",
  COALESCE((SELECT json_agg(json_build_object('name', l.name, 'version', l.version) ORDER BY l.name)
            FROM prompt_labels l WHERE l.prompt_id = p.id), '[]'::json) AS labels,
  CASE WHEN p.author_id IS NULL THEN NULL
       ELSE json_build_object('id', p.author_id, 'fullName', ap.full_name, 'avatarKey', ap.avatar_key) END AS author,
  p.rating_average AS "ratingAverage", p.rating_count AS "ratingCount", p.bookmark_count AS "bookmarkCount",
  EXISTS (SELECT 1 FROM prompt_bookmarks b WHERE b.prompt_id = p.id AND b.user_id = ${userId}::uuid) AS bookmarked,
  0 AS "commentCount", p.archived_at AS "archivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt"`;
const itemJoins = raw(`
  JOIN teams t ON t.id = p.team_id
  JOIN prompt_versions lv ON lv.prompt_id = p.id AND lv.version = p.latest_version
  LEFT JOIN profiles ap ON ap.user_id = p.author_id`);

/** loadOrganizationAccess (the list's organizationResourceProcedure("organization.read")). */
const organizationAccess = (userId: string, organizationId: string) => sql`
    SELECT my_om.role::text AS "organizationRole"
    FROM organizations o LEFT JOIN organization_members my_om ON my_om.organization_id = o.id AND my_om.user_id = ${userId}::uuid
    WHERE o.id = ${organizationId}::uuid AND (COALESCE(my_om.role::text IN (${join([sql`${"admin"}`, sql`${"member"}`], ",")}), FALSE))`;

/**
 * listPrompts({ organizationId, q? }): the first page of 20 (21 rows asked), default sort or relevance.
 * The page is chosen from prompts and the visibility joins alone; only its rows are joined to their
 * team, latest version, author, labels and bookmark (as services/prompts.ts does).
 */
function listPrompts(userId: string, organizationId: string, q?: string): BaselineQuery {
  const { joins, visible } = promptVisibility(userId);
  const where = [sql`p.organization_id = ${organizationId}::uuid`, visible, raw("p.archived_at IS NULL")];
  let rank = raw("0::float8");
  if (q) {
    const tsquery = `${q}:*`;
    const query = sql`(to_tsquery('english', ${tsquery}) || to_tsquery('simple', ${tsquery}))`;
    where.push(sql`(p.search_vector @@ ${query} OR ${q} <<% p.title OR ${q} <<% p.name)`);
    rank = sql`(ts_rank_cd(p.search_vector, ${query})::float8
      + GREATEST(strict_word_similarity(${q}, p.title), strict_word_similarity(${q}, p.name))::float8)`;
  }
  const order = raw(q ? `s.rank DESC, s.id DESC` : `s."updatedAt" DESC, s.id DESC`);
  return sql`
    SELECT ${itemColumns(userId)}, s.rank
    FROM (
      SELECT * FROM (
        SELECT p.id, p.updated_at AS "updatedAt", p.name, p.rating_average AS "ratingAverage",
               p.bookmark_count AS "bookmarkCount", ${rank} AS rank
        FROM prompts p ${joins}
        WHERE ${join(where, " AND ")}
      ) s
      WHERE TRUE
      ORDER BY ${order}
      LIMIT ${21}
    ) s
    JOIN prompts p ON p.id = s.id ${itemJoins}
    ORDER BY ${order}`;
}

/** The three statements of prompts.get: loadPrompt (promptProcedure("read")), getPrompt's row, the version shown. */
function getPrompt(userId: string, promptId: string, version: number): BaselineQuery[] {
  const { joins } = promptVisibility(userId);
  return [
    sql`
    SELECT p.team_id::text AS "teamId", p.organization_id::text AS "organizationId", p.visibility::text AS visibility,
           p.author_id::text AS "authorId", p.archived_at IS NOT NULL AS archived,
           my_tm.role::text AS "teamRole", my_om.role::text AS "organizationRole"
    FROM prompts p
    LEFT JOIN team_members my_tm ON my_tm.team_id = p.team_id AND my_tm.user_id = ${userId}::uuid
    LEFT JOIN organization_members my_om ON my_om.organization_id = p.organization_id AND my_om.user_id = ${userId}::uuid
    WHERE p.id = ${promptId}::uuid`,
    sql`
    SELECT ${itemColumns(userId)}, p.organization_id::text AS "organizationId",
           (SELECT r.stars FROM prompt_ratings r WHERE r.prompt_id = p.id AND r.user_id = ${userId}::uuid)::int AS "myRating"
    FROM prompts p ${joins} ${itemJoins}
    WHERE p.id = ${promptId}::uuid`,
    sql`
    SELECT ${raw(`
  v.version, v.type::text AS type, v.template, v.messages, v.variables, v.model, v.config,
  v.commit_message AS "commitMessage", v.created_at AS "createdAt",
  CASE WHEN v.author_id IS NULL THEN NULL
       ELSE json_build_object('id', v.author_id, 'fullName', vp.full_name, 'avatarKey', vp.avatar_key) END AS author`)}
    FROM prompt_versions v LEFT JOIN profiles vp ON vp.user_id = v.author_id
    WHERE v.prompt_id = ${promptId}::uuid AND v.version = ${version}`,
  ];
}

export const benchmark: Benchmark = {
  description: `prompts.list, prompts.list with search and prompts.get at 1k and 100k prompts (${VERSIONS} versions each), ${ORGANIZATIONS} organizations of ${TEAMS_PER_ORGANIZATION} teams`,
  variants: Object.keys(SIZES),
  duration: 5,
  warmup: 1,
  async seed({ db, createAccount, log, variant }) {
    const prompts = SIZES[variant!]!;
    const readerId = await createAccount(READER, { fullName: "Bench Reader" });
    await seedLibrary(db, readerId, prompts, log);
    const { rows } = await db.query(
      `SELECT (SELECT count(*) FROM prompts)::int AS prompts, (SELECT count(*) FROM prompt_versions)::int AS versions,
              (SELECT count(*) FROM prompts WHERE search_vector IS NULL OR body_vector IS NULL)::int AS unindexed,
              (SELECT count(*) FROM prompts p WHERE bookmark_count <> (SELECT count(*) FROM prompt_bookmarks b WHERE b.prompt_id = p.id)
                 OR rating_count <> (SELECT count(*) FROM prompt_ratings r WHERE r.prompt_id = p.id)
                 OR rating_sum <> (SELECT COALESCE(sum(stars), 0) FROM prompt_ratings r WHERE r.prompt_id = p.id))::int AS miscounted,
              (SELECT count(*) FROM prompts p JOIN prompt_versions lv ON lv.prompt_id = p.id AND lv.version = p.latest_version
                WHERE hashtext(p.id::text) % 100 = 0
                  AND p.body_vector IS DISTINCT FROM to_tsvector('english', prompt_version_text(lv.template, lv.messages)))::int AS stale,
              (SELECT count(*) FROM prompt_labels)::int AS labels, (SELECT count(*) FROM prompt_bookmarks)::int AS bookmarks,
              (SELECT count(*) FROM prompt_ratings)::int AS ratings,
              (SELECT count(*) FROM prompts WHERE search_vector @@ to_tsquery('english', $1 || ':*'))::int AS matches,
              (SELECT json_object_agg(visibility, n) FROM (SELECT visibility, count(*) AS n FROM prompts GROUP BY 1) v) AS visibility`,
      [SEARCH],
    );
    const r = rows[0];
    log(`${r.prompts} prompts, ${r.versions} versions, ${r.labels} labels, ${r.bookmarks} bookmarks, ${r.ratings} ratings; visibility ${JSON.stringify(r.visibility)}`);
    log(`'${SEARCH}' matches ${r.matches} prompts (${((100 * r.matches) / r.prompts).toFixed(1)}%)`);
    if (r.unindexed > 0) throw new Error(`${r.unindexed} prompts have no search_vector/body_vector: the triggers did not run as the API would`);
    if (r.stale > 0) throw new Error(`${r.stale} sampled prompts have a body_vector that is not their latest version's text`);
    if (r.miscounted > 0) throw new Error(`${r.miscounted} prompts have bookmark/rating counters that disagree with their rows`);
  },
  async scenarios({ db }) {
    const { rows } = await db.query<{ reader: string; organization: string }>(
      `SELECT (SELECT id FROM users WHERE email = $1) AS reader, (SELECT id FROM organizations WHERE name = 'Organization 01') AS organization`,
      [READER],
    );
    const { reader, organization } = rows[0]!;
    // A prompt the reader reads as their team's admin, written by someone else, with a production label
    // (so get shows that version, as the app does without a version asked).
    const { rows: targets } = await db.query<{ id: string; version: number }>(
      `SELECT p.id, l.version FROM prompts p
       JOIN team_members tm ON tm.team_id = p.team_id AND tm.user_id = $1 AND tm.role = 'admin'
       JOIN prompt_labels l ON l.prompt_id = p.id AND l.name = 'production'
       WHERE p.visibility = 'team' AND p.author_id <> $1 AND p.archived_at IS NULL
       ORDER BY p.name LIMIT 1`,
      [reader],
    );
    const target = targets[0]!;
    const list = { organizationId: organization };
    const search = { organizationId: organization, q: SEARCH };
    const cases: Omit<Scenario, "connections">[] = [
      { name: "prompts.list", procedure: "prompts.list", input: list, as: READER,
        baseline: [organizationAccess(reader, organization), listPrompts(reader, organization)] },
      { name: `prompts.list q=${SEARCH}`, procedure: "prompts.list", input: search, as: READER,
        baseline: [organizationAccess(reader, organization), listPrompts(reader, organization, SEARCH)] },
      { name: "prompts.get", procedure: "prompts.get", input: { id: target.id }, as: READER, baseline: getPrompt(reader, target.id, target.version) },
    ];
    return cases.flatMap((scenario) => [1, 10].map((connections) => ({ ...scenario, connections })));
  },
};
