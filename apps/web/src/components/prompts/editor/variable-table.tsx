// The variable contract: one row per variable, a table on wide screens and compact cards on narrow ones
// (two fields a line; Options only for an enum).
import type { ReactNode } from "react";
import { VARIABLE_TYPES, type VariableType } from "@promptly/shared";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { cn } from "@/lib/utils";
import type { VariableRow } from "./draft.ts";

const COLUMNS = ["Name", "Type", "Required", "Default", "Options", "Description"];
const GRID = "lg:grid-cols-[minmax(6rem,1fr)_7.5rem_5rem_minmax(6rem,1fr)_minmax(6rem,1fr)_minmax(8rem,1.5fr)]";

const DEFAULT_HINTS: Record<VariableType, string> = {
  string: "None",
  number: "e.g. 3",
  boolean: "true or false",
  enum: "One of the options",
  json: '{"key": "value"}',
};

interface VariableTableProps {
  rows: { name: string; row: VariableRow }[];
  onChange(name: string, row: VariableRow): void;
}

export function VariableTable({ rows, onChange }: VariableTableProps) {
  if (!rows.length) {
    return <p className="text-sm text-muted-foreground">{"Variables appear here as you write {{ name }} in the template."}</p>;
  }
  return (
    <div role="table" aria-label="Variables" className="grid gap-3 lg:gap-0">
      <div role="row" className={cn("hidden gap-2 border-b border-border pb-2 text-sm font-medium lg:grid", GRID)}>
        {COLUMNS.map((column) => (
          <div role="columnheader" key={column}>
            {column}
          </div>
        ))}
      </div>
      {rows.map(({ name, row }) => (
        <VariableRowItem key={name} name={name} row={row} onChange={(change) => onChange(name, { ...row, ...change })} />
      ))}
    </div>
  );
}

function VariableRowItem({ name, row, onChange }: { name: string; row: VariableRow; onChange(change: Partial<VariableRow>): void }) {
  return (
    <div
      role="row"
      data-testid="variable-row"
      className={cn("grid grid-cols-2 gap-2 rounded-md border border-border p-2 lg:items-center lg:rounded-none lg:border-0 lg:border-b lg:px-0 lg:py-2", GRID)}
    >
      <Cell caption="Name">
        <code className="font-mono text-sm font-semibold break-all">{name}</code>
      </Cell>
      <Cell caption="Type">
        <Select value={row.type} onValueChange={(type) => onChange({ type: type as VariableType })}>
          <SelectTrigger aria-label={`Type of ${name}`} className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {VARIABLE_TYPES.map((type) => (
              <SelectItem key={type} value={type}>
                {type}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </Cell>
      <Cell caption="Required">
        <Switch aria-label={`Required: ${name}`} checked={row.required} onCheckedChange={(required) => onChange({ required })} />
      </Cell>
      <Cell caption="Default">
        <Input aria-label={`Default of ${name}`} placeholder={DEFAULT_HINTS[row.type]} value={row.default} onChange={(e) => onChange({ default: e.target.value })} />
      </Cell>
      <Cell caption="Options" className={cn("col-span-2 lg:col-span-1", row.type !== "enum" && "max-lg:hidden")}>
        {row.type === "enum" ? (
          <Input aria-label={`Options of ${name}`} placeholder="formal, casual" value={row.options} onChange={(e) => onChange({ options: e.target.value })} />
        ) : (
          <span className="text-sm text-muted-foreground">Only for enum</span>
        )}
      </Cell>
      <Cell caption="Description" className="col-span-2 lg:col-span-1">
        <Input aria-label={`Description of ${name}`} value={row.description} onChange={(e) => onChange({ description: e.target.value })} />
      </Cell>
    </div>
  );
}

/** A cell; on narrow screens, where the header row is hidden, it shows its column's name. */
function Cell({ caption, className, children }: { caption: string; className?: string; children: ReactNode }) {
  return (
    <div role="cell" className={cn("grid min-w-0 content-start gap-1", className)}>
      <span aria-hidden="true" className="text-xs leading-none font-medium text-muted-foreground lg:hidden">
        {caption}
      </span>
      {children}
    </div>
  );
}
