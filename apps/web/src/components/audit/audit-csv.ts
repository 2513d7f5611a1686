// The audit log as CSV (issue 17): one row per event, the columns the table shows plus the raw change.
import { AUDIT_ACTION_LABELS } from "@promptly/shared";

export interface AuditCsvRow {
  createdAt: Date;
  action: string;
  actor: { kind: string; id: string | null; name: string | null };
  target: { type: string; id: string; name: string | null };
  teamName: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

/** A field as RFC 4180 wants it; a leading =, +, - or @ is prefixed so a spreadsheet never runs it as a formula. */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

export const actionLabel = (action: string) => (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;

export const actorLabel = (actor: AuditCsvRow["actor"]) =>
  actor.kind === "cli" ? "Command line" : actor.kind === "api_key" ? `API key ${actor.name ?? "(deleted)"}` : (actor.name ?? "(deleted account)");

export function auditCsv(rows: readonly AuditCsvRow[]): string {
  const header = ["time", "actor", "actor_kind", "actor_id", "action", "target_type", "target_id", "target_name", "team", "before", "after", "ip"];
  const lines = rows.map((row) =>
    [
      row.createdAt.toISOString(), actorLabel(row.actor), row.actor.kind, row.actor.id ?? "", row.action, row.target.type, row.target.id,
      row.target.name ?? "", row.teamName ?? "", json(row.before), json(row.after), row.ip ?? "",
    ].map(field).join(","),
  );
  return [header.join(","), ...lines].join("\r\n") + "\r\n";
}
