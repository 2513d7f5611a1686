// Prompts written straight into the database for the screens' tests (the editor has its own test):
// a prompt with version 1, and optionally ratings (the counters follow by trigger).
import { randomBytes } from "node:crypto";
import { withDb } from "./accounts.ts";

export interface PromptFixture {
  organizationId: string;
  teamId: string;
  authorId: string;
  title?: string;
  name?: string;
  description?: string;
  tags?: string[];
  template?: string;
  visibility?: "private" | "team" | "organization";
  ratings?: { userId: string; stars: number }[];
}

export async function createPromptWith(fixture: PromptFixture) {
  const title = fixture.title ?? `Prompt ${randomBytes(3).toString("hex")}`;
  const name = fixture.name ?? `e2e/${randomBytes(5).toString("hex")}`;
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO prompts (organization_id, team_id, name, title, description, tags, visibility, author_id, latest_version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1) RETURNING id`,
      [fixture.organizationId, fixture.teamId, name, title, fixture.description ?? "", fixture.tags ?? [], fixture.visibility ?? "team", fixture.authorId],
    );
    const id = rows[0]!.id;
    await client.query(`INSERT INTO prompt_versions (prompt_id, version, type, template, author_id) VALUES ($1, 1, 'text', $2, $3)`, [
      id,
      fixture.template ?? "Write about {{ topic }}.",
      fixture.authorId,
    ]);
    for (const rating of fixture.ratings ?? []) {
      await client.query(`INSERT INTO prompt_ratings (user_id, prompt_id, stars) VALUES ($1, $2, $3)`, [rating.userId, id, rating.stars]);
    }
    return { id, name, title };
  });
}

/** An open change request proposing `version` for production, based on what production points at now. */
export async function createChangeRequestWith(fixture: { promptId: string; authorId: string; version: number; message?: string }) {
  return withDb(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO change_requests (prompt_id, label, base_version, proposed_version, message, author_id)
       VALUES ($1, 'production', (SELECT version FROM prompt_labels WHERE prompt_id = $1 AND name = 'production'), $2, $3, $4) RETURNING id`,
      [fixture.promptId, fixture.version, fixture.message ?? "Please review this change.", fixture.authorId],
    );
    return { id: rows[0]!.id };
  });
}
