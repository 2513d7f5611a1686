import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";
import { useFocused } from "./use-focused.ts";

export function Input({ className, type, disabled, readOnly, onFocus, onBlur, ...props }: ComponentProps<"input">) {
  const { focused, handlers: focusHandlers } = useFocused<HTMLInputElement>(onFocus, onBlur);
  // A field disabled while it has focus (Enter in it started a save) is only read-only meanwhile: a native
  // `disabled` would drop focus to the page's body.
  const onlySaysDisabled = !!disabled && focused;
  return (
    <input
      type={type}
      data-slot="input"
      className={cn(
        "flex h-9 w-full min-w-0 rounded-md border border-input bg-background px-3 py-1 text-sm shadow-xs transition-colors outline-none",
        "placeholder:text-muted-foreground file:border-0 file:bg-transparent file:text-sm file:font-medium",
        "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:opacity-50",
        "aria-invalid:border-destructive aria-invalid:ring-destructive/30",
        className,
      )}
      disabled={onlySaysDisabled ? undefined : disabled}
      readOnly={onlySaysDisabled || readOnly}
      aria-disabled={onlySaysDisabled ? true : undefined}
      {...focusHandlers}
      {...props}
    />
  );
}
