// A 1-5 star rating: five toggle buttons ('Rate 1 star' ... 'Rate 5 stars', the current one pressed),
// 'Clear rating', and the average ('4.0 (3 ratings)'). Who may not rate sees the reason instead.
import { useId, useState } from "react";
import { Star } from "lucide-react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

const STARS = [1, 2, 3, 4, 5] as const;

interface StarRatingProps {
  /** The person's own rating, null when none. */
  value: number | null;
  average: number;
  count: number;
  /** Why the person cannot rate: the buttons are disabled and this is shown. */
  disabledReason?: string;
  pending?: boolean;
  onRate(stars: number): void;
  onClear(): void;
}

export function StarRating({ value, average, count, disabledReason, pending = false, onRate, onClear }: StarRatingProps) {
  const hintId = useId();
  const [hovered, setHovered] = useState<number | null>(null);
  // Pending clicks are ignored rather than disabled: disabling would take the focus away.
  const disabled = disabledReason !== undefined;
  const shown = hovered ?? value ?? (disabledReason ? Math.round(average) : 0);
  const summary = count > 0 ? `${average.toFixed(1)} (${count} ${count === 1 ? "rating" : "ratings"})` : "No ratings yet";

  return (
    <div className="grid gap-1">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <div
          role="group"
          aria-label="Your rating"
          aria-describedby={disabledReason ? hintId : undefined}
          className="flex items-center"
          onMouseLeave={() => setHovered(null)}
        >
          {STARS.map((stars) => (
            <button
              key={stars}
              type="button"
              aria-label={`Rate ${stars} ${stars === 1 ? "star" : "stars"}`}
              aria-pressed={value === stars}
              disabled={disabled}
              onMouseEnter={() => setHovered(stars)}
              onClick={() => !pending && onRate(stars)}
              className="cursor-pointer rounded-sm p-1 outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60"
            >
              <Star
                aria-hidden="true"
                className={cn("size-5", stars <= shown ? "fill-yellow-400 text-yellow-400" : "text-muted-foreground")}
              />
            </button>
          ))}
        </div>
        <span className="text-sm text-muted-foreground" data-testid="rating-summary">
          {summary}
        </span>
        {value !== null && !disabledReason && (
          <Button variant="ghost" size="sm" onClick={() => !pending && onClear()}>
            Clear rating
          </Button>
        )}
      </div>
      {disabledReason && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {disabledReason}
        </p>
      )}
    </div>
  );
}
