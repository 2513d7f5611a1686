// The range of the analytics views: the last 7, 30 or 90 days (UTC), shared by /analytics and a prompt's Usage tab.
import { ANALYTICS_RANGES, type AnalyticsRange } from "@promptly/shared";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

export function RangeSelect({ id, value, onChange }: { id: string; value: AnalyticsRange; onChange: (days: AnalyticsRange) => void }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Range</Label>
      <Select value={String(value)} onValueChange={(next) => onChange(Number(next) as AnalyticsRange)}>
        <SelectTrigger id={id} className="w-full sm:w-44">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {ANALYTICS_RANGES.map((days) => (
            <SelectItem key={days} value={String(days)}>
              Last {days} days
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** "12 Nov" for a UTC day (YYYY-MM-DD). */
export const shortDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
