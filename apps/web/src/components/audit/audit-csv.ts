// The audit log as CSV: one row per event, the columns the table shows plus the raw change.
import { AUDIT_ACTION_LABELS, csvText } from "@promptly/shared";

export interface AuditCsvRow {
  createdAt: Date;
  action: string;
  actor: { kind: string; id: string | null; name: string | null; email?: string | null };
  target: { type: string; id: string; name: string | null };
  teamName: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

export const actionLabel = (action: string) => (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;

export const actorLabel = (actor: AuditCsvRow["actor"]) =>
  actor.kind === "cli" ? "Command line" : actor.kind === "api_key" ? `API key ${actor.name ?? "(deleted)"}` : (actor.name ?? "(deleted account)");

export function auditCsv(rows: readonly AuditCsvRow[]): string {
  const header = ["time", "actor", "actor_kind", "actor_id", "action", "target_type", "target_id", "target_name", "team", "before", "after", "ip"];
  const lines = rows.map((row) => [
    row.createdAt.toISOString(), actorLabel(row.actor), row.actor.kind, row.actor.id, row.action, row.target.type, row.target.id,
    row.target.name, row.teamName, json(row.before), json(row.after), row.ip,
  ]);
  return csvText([header, ...lines]);
}
