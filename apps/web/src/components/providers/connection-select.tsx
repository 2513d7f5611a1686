// The choice of a model connection, as every form asks it: the connections by name, each one that
// carries its last test saying when it was never tested or its last test failed.
import type { ReactNode } from "react";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

interface ChoosableConnection {
  id: string;
  name: string;
  /** null: never tested; left out: the list does not say. */
  lastTest?: { ok: boolean } | null;
}

const testNote = (connection: ChoosableConnection) =>
  connection.lastTest === undefined || connection.lastTest?.ok ? "" : connection.lastTest === null ? " (not tested)" : " (test failed)";

export function ConnectionSelect({ id, value, onValueChange, connections, placeholder, disabled, className = "w-full", before }: {
  /** The field's id: the Select root renders nothing, so the label's id goes to its trigger. */
  id: string;
  value: string;
  onValueChange(next: string): void;
  connections: ChoosableConnection[];
  placeholder: string;
  disabled?: boolean;
  className?: string;
  /** Choices listed before the connections (e.g. a default). */
  before?: ReactNode;
}) {
  return (
    <Select value={value} disabled={disabled} onValueChange={onValueChange}>
      <SelectTrigger id={id} className={className}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {before}
        {connections.map((connection) => (
          <SelectItem key={connection.id} value={connection.id}>
            {connection.name}
            {testNote(connection)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
