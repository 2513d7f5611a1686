// Who acted, in the audit log and a prompt's activity: a person's name (else their address's local
// part), with the address on hover; an API key or the command line by their labels.
import { actorLabel, type AuditCsvRow } from "./audit-csv.ts";

export function ActorName({ actor }: { actor: AuditCsvRow["actor"] }) {
  const label = actorLabel(actor);
  if (!actor.email) return <>{label}</>;
  return (
    <span title={actor.email} data-email={actor.email}>
      {label}
    </span>
  );
}
