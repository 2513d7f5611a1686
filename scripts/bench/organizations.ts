// `npm run bench -- organizations`: organizations.list for a super user who sees 1,000 organizations
// with 50,000 memberships between them (50 each). Target: p99 under 50 ms. Measured once with a
// single client (the latency one person sees) and once under the harness's default load.
import type { Benchmark } from "./types.ts";

const ORGANIZATIONS = 1_000;
const MEMBERS_PER_ORGANIZATION = 50;
const PEOPLE = 5_000;
const SUPER_USER = "bench-super@bench.test";

/** The same SQL as organizations.list: rows, member counts (kept by a trigger) and the caller's role. */
const LIST_SQL = `
  SELECT o.id, o.name, o.slug, o.created_at,
         o.member_count, mine.role AS my_role,
         (true OR mine.role IS NOT DISTINCT FROM 'admin') AS is_admin
  FROM organizations o
  LEFT JOIN organization_members mine ON mine.organization_id = o.id AND mine.user_id = $1
  ORDER BY o.name, o.id`;

export const benchmark: Benchmark = {
  description: `organizations.list as a super user: ${ORGANIZATIONS} organizations, ${ORGANIZATIONS * MEMBERS_PER_ORGANIZATION} memberships`,
  async seed({ db, createAccount, log }) {
    const superUserId = await createAccount(SUPER_USER, { superUser: true, fullName: "Bench Super" });
    await db.query(
      `INSERT INTO users (email, updated_at) SELECT 'person-' || lpad(g::text, 5, '0') || '@bench.test', now() FROM generate_series(1, $1) g`,
      [PEOPLE],
    );
    await db.query(
      `INSERT INTO organizations (name, slug, created_by, updated_at)
       SELECT 'Organization ' || lpad(g::text, 4, '0'), 'organization-' || g, $2, now() FROM generate_series(1, $1) g`,
      [ORGANIZATIONS, superUserId],
    );
    // Organization i gets the 50 consecutive people from i * 50 (wrapping): distinct within each one.
    await db.query(
      `WITH o AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS i FROM organizations),
            p AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS j FROM users WHERE email LIKE 'person-%')
       INSERT INTO organization_members (organization_id, user_id, role)
       SELECT o.id, p.id, (CASE WHEN k = 0 THEN 'admin' ELSE 'member' END)::organization_role
       FROM o CROSS JOIN generate_series(0, $1 - 1) k JOIN p ON p.j = (o.i * $1 + k) % $2`,
      [MEMBERS_PER_ORGANIZATION, PEOPLE],
    );
    // The super user also belongs to a few (so their role is looked up for real).
    await db.query(
      `INSERT INTO organization_members (organization_id, user_id, role)
       SELECT id, $1, 'admin' FROM organizations ORDER BY name LIMIT 10`,
      [superUserId],
    );
    const { rows } = await db.query<{ organizations: number; memberships: number }>(
      `SELECT (SELECT count(*) FROM organizations)::int AS organizations, (SELECT count(*) FROM organization_members)::int AS memberships`,
    );
    log(`${rows[0]!.organizations} organizations, ${rows[0]!.memberships} memberships`);
  },
  async scenarios({ db }) {
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [SUPER_USER]);
    const baseline = [{ sql: LIST_SQL, params: [rows[0]!.id] }];
    return [
      { name: "organizations.list (super user, 1 client)", procedure: "organizations.list", as: SUPER_USER, baseline, connections: 1 },
      { name: "organizations.list (super user, 1 client, gzip)", procedure: "organizations.list", as: SUPER_USER, baseline, connections: 1, gzip: true },
      { name: "organizations.list (super user, 10 clients)", procedure: "organizations.list", as: SUPER_USER, baseline, connections: 10 },
      { name: "organizations.list (super user, default load)", procedure: "organizations.list", as: SUPER_USER, baseline },
    ];
  },
};
