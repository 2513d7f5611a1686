// Review with evidence: what a version's latest finished evaluation says of it (the gate on approving a
// `production` move, and the change request page's comparison of the candidate with production).
//
// A version's pass rate is its items that passed over those judged (passed or failed) in that
// evaluation, x 100, rounded DOWN to one decimal: shown figures never read at or above a whole
// threshold the version does not reach. A case that could not run is no verdict on the version, so it
// is not in the rate; but a required pass rate is met only by an evaluation where every case ran.
// "Latest": the most recently started evaluation with status `done` that ran the version.
import { z } from "zod";
import { Prisma, type DbOrTx } from "@promptly/db";
import { EVALUATION_MSG, caseErrorInWords } from "@promptly/shared";
import type { Refusal } from "../prompts/prompt-rules.ts";

/** A version's figures in one evaluation. */
const versionEvidence = z.object({
  evaluationId: z.string(),
  version: z.number(),
  createdAt: z.date(),
  finishedAt: z.date().nullable(),
  /** Its cases: how many passed, failed, and could not run (the first one's reason). */
  total: z.number(),
  passed: z.number(),
  failed: z.number(),
  errors: z.number(),
  firstError: z.string().nullable(),
  /** Passed over passed + failed: 0-100, one decimal, rounded down; null when no case was judged. */
  passRate: z.number().nullable(),
  p50Ms: z.number().nullable(),
  tokens: z.number(),
  /** US dollars; null: no item's cost is known. */
  cost: z.number().nullable(),
});
export type VersionEvidence = z.infer<typeof versionEvidence>;

/** The change request page's evidence: the candidate's latest evaluation beside production's, on the same cases where there is one. */
export const changeRequestEvidence = z.object({
  /** The team's required pass rate (null: off). */
  requiredPassRate: z.number().nullable(),
  candidate: versionEvidence.nullable(),
  /** The version `production` points at now, in the candidate's evaluation when it ran it too, else its own latest. */
  production: versionEvidence.nullable(),
  /** Both figures come from the same cases (one evaluation, or two over the same test cases). */
  sameCases: z.boolean(),
});

const passRateOf = (passed: number, failed: number) => (passed + failed === 0 ? null : Math.floor((passed * 1000) / (passed + failed)) / 10);

type Row = Omit<VersionEvidence, "passRate"> & { cases: string[] };

/** The figures of `version` in its latest finished evaluation (or in `evaluationId` when given). */
async function evidenceOf(db: DbOrTx, promptId: string, version: number, evaluationId?: string): Promise<Row | null> {
  const [row] = await db.$queryRaw<Row[]>`
    WITH latest AS (
      SELECT e.id, e.created_at, e.finished_at FROM evaluations e
      WHERE e.prompt_id = ${promptId}::uuid AND ${version}::int = ANY (e.versions) AND e.status = 'done'
        AND ${evaluationId ? Prisma.sql`e.id = ${evaluationId}::uuid` : Prisma.sql`TRUE`}
      ORDER BY e.created_at DESC, e.id DESC
      LIMIT 1
    )
    SELECT l.id::text AS "evaluationId", ${version}::int AS version, l.created_at AS "createdAt", l.finished_at AS "finishedAt",
           count(i.id)::int AS total,
           (count(i.id) FILTER (WHERE i.status = 'passed'))::int AS passed,
           (count(i.id) FILTER (WHERE i.status = 'failed'))::int AS failed,
           (count(i.id) FILTER (WHERE i.status = 'error'))::int AS errors,
           (array_agg(i.error ORDER BY i.position) FILTER (WHERE i.status = 'error'))[1] AS "firstError",
           (percentile_cont(0.5) WITHIN GROUP (ORDER BY i.latency_ms) FILTER (WHERE i.status IN ('passed', 'failed')))::float8 AS "p50Ms",
           COALESCE(sum(COALESCE(i.input_tokens, 0) + COALESCE(i.output_tokens, 0)), 0)::int AS tokens,
           sum(i.cost)::float8 AS cost,
           COALESCE(array_agg(i.test_case_id::text ORDER BY i.test_case_id) FILTER (WHERE i.test_case_id IS NOT NULL), '{}') AS cases
    FROM latest l LEFT JOIN evaluation_items i ON i.evaluation_id = l.id AND i.version = ${version}::int
    GROUP BY l.id, l.created_at, l.finished_at`;
  return row ?? null;
}

const toEvidence = ({ cases: _cases, ...row }: Row): VersionEvidence =>
  versionEvidence.parse({ ...row, p50Ms: row.p50Ms === null ? null : Math.round(row.p50Ms), passRate: passRateOf(row.passed, row.failed), firstError: row.firstError === null ? null : caseErrorInWords(row.firstError) });

/** The pass rate (0-100, one decimal, rounded down) of `version` in its latest finished evaluation; null: none ran it, or none of its cases was judged. */
export async function latestEvaluationPassRate(db: DbOrTx, promptId: string, version: number): Promise<number | null> {
  const row = await evidenceOf(db, promptId, version);
  return row ? passRateOf(row.passed, row.failed) : null;
}

/** The candidate's latest evaluation, and production's on the same cases: in the candidate's evaluation when it ran production too. */
export async function versionsEvidence(db: DbOrTx, promptId: string, candidateVersion: number | null, productionVersion: number | null) {
  const candidate = candidateVersion === null ? null : await evidenceOf(db, promptId, candidateVersion);
  let production: Row | null = null;
  if (productionVersion !== null) {
    production = (candidate && productionVersion !== candidateVersion ? await evidenceOf(db, promptId, productionVersion, candidate.evaluationId) : null) ?? (await evidenceOf(db, promptId, productionVersion));
  }
  const sameCases =
    !!candidate && !!production && (candidate.evaluationId === production.evaluationId || (candidate.cases.length > 0 && candidate.cases.join() === production.cases.join()));
  return { candidate: candidate && toEvidence(candidate), production: production && toEvidence(production), sameCases };
}

/** The team's required pass rate before `production` moves; null: off. */
export async function requiredPassRate(db: DbOrTx, teamId: string): Promise<number | null> {
  const team = await db.team.findUnique({ where: { id: teamId }, select: { requiredPassRate: true } });
  return team?.requiredPassRate ?? null;
}

/**
 * What stops `version` reaching `production` by the team's required pass rate: there is no finished
 * evaluation of it, some of its cases could not run in the latest (whatever the rate of the others),
 * or it passes fewer of its cases than required. Null when nothing does.
 */
export async function passRateRefusal(db: DbOrTx, prompt: { id: string; teamId: string }, version: number): Promise<Refusal | null> {
  const required = await requiredPassRate(db, prompt.teamId);
  if (required === null) return null;
  const row = await evidenceOf(db, prompt.id, version);
  if (row && row.errors > 0) return { code: "PRECONDITION", message: EVALUATION_MSG.passRateWithErrors(row.errors, required), reason: "CASES_NOT_RUN" };
  const passRate = row ? passRateOf(row.passed, row.failed) : null;
  if (passRate === null) return { code: "PRECONDITION", message: EVALUATION_MSG.notEvaluated(required), reason: "NOT_EVALUATED" };
  if (passRate < required) return { code: "PRECONDITION", message: EVALUATION_MSG.passRateTooLow(passRate, required), reason: "PASS_RATE_TOO_LOW" };
  return null;
}
