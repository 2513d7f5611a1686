// The variables of two versions as one table: a row per variable, what happened to it (added, removed,
// changed, unchanged), and each field; a changed field reads 'before → after'.
import type { VariableContract } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { prettyJson } from "./version-body.ts";

type Change = "Added" | "Removed" | "Changed" | "Unchanged";

const FIELDS: { title: string; text: (variable: VariableContract) => string; mono?: boolean }[] = [
  { title: "Type", text: (variable) => variable.type },
  { title: "Required", text: (variable) => ((variable.required ?? true) ? "Yes" : "No") },
  { title: "Default", text: (variable) => (variable.default === undefined || variable.default === null ? "—" : prettyJson(variable.default)), mono: true },
  { title: "Options", text: (variable) => (variable.options?.length ? variable.options.join(", ") : "—") },
  { title: "Description", text: (variable) => variable.description || "—" },
];

function changeOf(before: VariableContract | undefined, after: VariableContract | undefined): Change {
  if (!before) return "Added";
  if (!after) return "Removed";
  return FIELDS.some((field) => field.text(before) !== field.text(after)) ? "Changed" : "Unchanged";
}

const ORDER: Record<Change, number> = { Added: 0, Removed: 1, Changed: 2, Unchanged: 3 };

export function VariablesDiff({ before, after }: { before: readonly VariableContract[]; after: readonly VariableContract[] }) {
  const was = new Map(before.map((variable) => [variable.name, variable]));
  const now = new Map(after.map((variable) => [variable.name, variable]));
  const rows = [...new Set([...was.keys(), ...now.keys()])]
    .map((name) => ({ name, before: was.get(name), after: now.get(name), change: changeOf(was.get(name), now.get(name)) }))
    .sort((a, b) => ORDER[a.change] - ORDER[b.change] || a.name.localeCompare(b.name));
  return (
    <Table aria-label="Variables compared">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Change</TableHead>
          {FIELDS.map((field) => (
            <TableHead key={field.title}>{field.title}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.name} data-change={row.change.toLowerCase()}>
            <TableCell className="font-mono">{row.name}</TableCell>
            <TableCell>
              <Badge variant={row.change === "Removed" ? "destructive" : row.change === "Unchanged" ? "outline" : "secondary"}>{row.change}</Badge>
            </TableCell>
            {FIELDS.map((field) => {
              const old = row.before && field.text(row.before);
              const next = row.after && field.text(row.after);
              const text = old === undefined ? next : next === undefined || old === next ? old : `${old} → ${next}`;
              return (
                <TableCell key={field.title} className={field.title === "Description" ? "min-w-48 whitespace-normal" : field.mono ? "font-mono" : undefined}>
                  {text}
                </TableCell>
              );
            })}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
