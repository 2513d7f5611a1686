import { versionLabel } from "@promptly/shared";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

/** A labelled choice of one of a prompt's versions ("v3"), as the comparisons of evaluations and production offer it. */
export function VersionPicker({ id, label, versions, value, onChange, triggerClassName = "w-32" }: {
  id: string;
  label: string;
  versions: readonly number[];
  value: number;
  onChange(version: number): void;
  triggerClassName?: string;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select value={String(value)} onValueChange={(next) => onChange(Number(next))}>
        <SelectTrigger id={id} className={triggerClassName}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {versions.map((version) => (
            <SelectItem key={version} value={String(version)}>
              {versionLabel(version)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
