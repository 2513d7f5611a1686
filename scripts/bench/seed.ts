// Seeding shared by benchmarks: the smallest world (one admin, one organization, one team).
import type { SeedContext } from "./types.ts";

/** An account that administers a new organization ('Bench Org') and its one team ('Support'). */
export async function adminOfOneTeam({ db, createAccount }: Pick<SeedContext, "db" | "createAccount">, email: string, fullName: string) {
  const admin = await createAccount(email, { fullName });
  const { rows: [organization] } = await db.query<{ id: string }>(`INSERT INTO organizations (name, updated_at) VALUES ('Bench Org', now()) RETURNING id`);
  const { rows: [team] } = await db.query<{ id: string }>(
    `INSERT INTO teams (name, organization_id, updated_at) VALUES ('Support', $1, now()) RETURNING id`,
    [organization!.id],
  );
  await db.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, 'admin')`, [organization!.id, admin]);
  await db.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'admin')`, [team!.id, admin]);
  return { admin, organizationId: organization!.id, teamId: team!.id };
}
