// The variable contract in force: every described variable and each undescribed one of the template.
import type { VariableContract } from "@promptly/shared";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { prettyJson } from "./version-body.ts";

export function VariableTable({ contract }: { contract: VariableContract[] }) {
  if (!contract.length) return <p className="text-sm text-muted-foreground">This prompt has no variables.</p>;
  return (
    <Table aria-label="Variables">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Type</TableHead>
          <TableHead>Required</TableHead>
          <TableHead>Default</TableHead>
          <TableHead>Options</TableHead>
          <TableHead>Description</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {contract.map((variable) => (
          <TableRow key={variable.name}>
            <TableCell className="font-mono">{variable.name}</TableCell>
            <TableCell>{variable.type}</TableCell>
            <TableCell>{(variable.required ?? true) ? "Yes" : "No"}</TableCell>
            <TableCell className="font-mono">{variable.default === undefined || variable.default === null ? "—" : prettyJson(variable.default)}</TableCell>
            <TableCell>{variable.options?.length ? variable.options.join(", ") : "—"}</TableCell>
            <TableCell className="min-w-48 whitespace-normal">{variable.description || "—"}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
