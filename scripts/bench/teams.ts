// `npm run bench -- teams`: teams.list and teamMembers.list in one organization with 500 teams and
// 5,000 members (each in one team of 10). teams.list is measured as the organization's admin, who
// sees all 500 teams with their member counts; teamMembers.list on one team as its admin.
// Target: p99 under 50 ms. Measured with one client (the latency one person sees), 10 clients and
// the harness's default load.
import type { Benchmark } from "./types.ts";

const TEAMS = 500;
const MEMBERS = 5_000;
const MEMBERS_PER_TEAM = MEMBERS / TEAMS;
const ADMIN = "bench-org-admin@bench.test";
const ORGANIZATION = "Bench Organization";

/** The same answer as teams.list({ organizationId }) for `$1`, in one statement. */
const LIST_TEAMS_SQL = `
  SELECT t.id, t.name, t.organization_id, o.name AS organization_name, t.created_at, t.updated_at, t.created_by,
         (SELECT count(*) FROM team_members m WHERE m.team_id = t.id)::int AS member_count,
         (SELECT m.role FROM team_members m WHERE m.team_id = t.id AND m.user_id = $1) AS my_role
  FROM teams t JOIN organizations o ON o.id = t.organization_id
  WHERE t.organization_id = $2
    AND (EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = t.id AND m.user_id = $1)
      OR EXISTS (SELECT 1 FROM organization_members om WHERE om.organization_id = t.organization_id AND om.user_id = $1 AND om.role = 'admin'))
  ORDER BY t.name, t.id`;

/** The same answer as teamMembers.list({ teamId }) for `$1`. */
const LIST_MEMBERS_SQL = `
  SELECT m.id, m.team_id, m.user_id, m.role, m.joined_at, u.email, p.full_name, p.avatar_key
  FROM team_members m JOIN users u ON u.id = m.user_id LEFT JOIN profiles p ON p.user_id = m.user_id
  WHERE m.team_id = $1
  ORDER BY m.role, m.joined_at, m.id`;

export const benchmark: Benchmark = {
  description: `teams.list and teamMembers.list: one organization, ${TEAMS} teams, ${MEMBERS} members`,
  async seed({ db, createAccount, log }) {
    const adminId = await createAccount(ADMIN, { fullName: "Bench Org Admin" });
    const { rows: organizations } = await db.query<{ id: string }>(
      `INSERT INTO organizations (name, created_by, updated_at) VALUES ($1, $2, now()) RETURNING id`,
      [ORGANIZATION, adminId],
    );
    const organizationId = organizations[0]!.id;
    await db.query(
      `INSERT INTO users (email, updated_at) SELECT 'member-' || lpad(g::text, 5, '0') || '@bench.test', now() FROM generate_series(1, $1) g`,
      [MEMBERS],
    );
    await db.query(
      `INSERT INTO profiles (user_id, full_name, updated_at)
       SELECT id, 'Member ' || substr(email, 8, 5), now() FROM users WHERE email LIKE 'member-%'`,
    );
    await db.query(
      `INSERT INTO organization_members (organization_id, user_id, role)
       SELECT $1::uuid, id, 'member'::organization_role FROM users WHERE email LIKE 'member-%'
       UNION ALL SELECT $1::uuid, $2::uuid, 'admin'::organization_role`,
      [organizationId, adminId],
    );
    await db.query(
      `INSERT INTO teams (name, organization_id, created_by, updated_at)
       SELECT 'Team ' || lpad(g::text, 3, '0'), $2, $3, now() FROM generate_series(1, $1) g`,
      [TEAMS, organizationId, adminId],
    );
    // Team i gets members i * 10 .. i * 10 + 9: the first is its admin, then editors and viewers.
    await db.query(
      `WITH t AS (SELECT id, row_number() OVER (ORDER BY name) - 1 AS i FROM teams),
            p AS (SELECT id, row_number() OVER (ORDER BY email) - 1 AS j FROM users WHERE email LIKE 'member-%')
       INSERT INTO team_members (team_id, user_id, role)
       SELECT t.id, p.id, (CASE WHEN p.j % $1 = 0 THEN 'admin' WHEN p.j % $1 < 4 THEN 'editor' ELSE 'viewer' END)::team_role
       FROM t JOIN p ON p.j / $1 = t.i`,
      [MEMBERS_PER_TEAM],
    );
    // The organization admin also belongs to one team as its second admin.
    await db.query(
      `INSERT INTO team_members (team_id, user_id, role) SELECT id, $1, 'admin' FROM teams WHERE name = 'Team 250'`,
      [adminId],
    );
    const { rows } = await db.query<{ teams: number; members: number; memberships: number }>(
      `SELECT (SELECT count(*) FROM teams)::int AS teams, (SELECT count(*) FROM organization_members)::int AS members,
              (SELECT count(*) FROM team_members)::int AS memberships`,
    );
    log(`${rows[0]!.teams} teams, ${rows[0]!.members} organization members, ${rows[0]!.memberships} team memberships`);
  },
  async scenarios({ db }) {
    const { rows } = await db.query<{ admin: string; organization: string; team: string }>(
      `SELECT (SELECT id FROM users WHERE email = $1) AS admin, (SELECT id FROM organizations WHERE name = $2) AS organization,
              (SELECT id FROM teams WHERE name = 'Team 250') AS team`,
      [ADMIN, ORGANIZATION],
    );
    const { admin, organization, team } = rows[0]!;
    const teamsBaseline = [{ sql: LIST_TEAMS_SQL, params: [admin, organization] }];
    const membersBaseline = [{ sql: LIST_MEMBERS_SQL, params: [team] }];
    const teamsInput = { organizationId: organization };
    const membersInput = { teamId: team };
    return [
      { name: "teams.list (500 teams, 1 client)", procedure: "teams.list", input: teamsInput, as: ADMIN, baseline: teamsBaseline, connections: 1 },
      { name: "teams.list (500 teams, 10 clients)", procedure: "teams.list", input: teamsInput, as: ADMIN, baseline: teamsBaseline, connections: 10 },
      { name: "teams.list (500 teams, default load)", procedure: "teams.list", input: teamsInput, as: ADMIN, baseline: teamsBaseline },
      { name: "teamMembers.list (11 members, 1 client)", procedure: "teamMembers.list", input: membersInput, as: ADMIN, baseline: membersBaseline, connections: 1 },
      { name: "teamMembers.list (11 members, 10 clients)", procedure: "teamMembers.list", input: membersInput, as: ADMIN, baseline: membersBaseline, connections: 10 },
      { name: "teamMembers.list (11 members, default load)", procedure: "teamMembers.list", input: membersInput, as: ADMIN, baseline: membersBaseline },
    ];
  },
};
