// A list's filter: a labelled select of options with one more, first, that means no filter.
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

/** The select's own value for "no filter" (never an option's value: those are ids and known names). */
const NO_FILTER = "__any__";

export interface FilterSelectProps<T extends string> {
  id: string;
  label: string;
  /** The first option, for no filter. */
  anyLabel?: string;
  /** undefined: no filter. */
  value: T | undefined;
  options: { value: T; label: string }[];
  onChange(value: T | undefined): void;
  className?: string;
}

export function FilterSelect<T extends string>({ id, label, anyLabel = "All", value, options, onChange, className = "grid gap-1.5" }: FilterSelectProps<T>) {
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={value ?? NO_FILTER} onValueChange={(next) => onChange(next === NO_FILTER ? undefined : (next as T))}>
        <SelectTrigger id={id} className="w-full">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={NO_FILTER}>{anyLabel}</SelectItem>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
