import type { ComponentProps } from "react";
import * as SwitchPrimitive from "@radix-ui/react-switch";
import { cn } from "@/lib/utils";
import { useFocused } from "./use-focused.ts";

export function Switch({ className, disabled, onClick, onFocus, onBlur, ...props }: ComponentProps<typeof SwitchPrimitive.Root>) {
  const { focused, handlers: focusHandlers } = useFocused<HTMLButtonElement>(onFocus, onBlur);
  // A switch that saves when flipped and is disabled meanwhile keeps focus (a native `disabled` drops it
  // to the page's body): it only says it is disabled and ignores presses.
  const onlySaysDisabled = !!disabled && focused;
  return (
    <SwitchPrimitive.Root
      disabled={onlySaysDisabled ? undefined : disabled}
      aria-disabled={onlySaysDisabled ? true : undefined}
      onClick={(event) => {
        if (onlySaysDisabled) event.preventDefault();
        else onClick?.(event);
      }}
      {...focusHandlers}
      data-slot="switch"
      className={cn(
        "peer inline-flex h-5 w-9 shrink-0 items-center rounded-full border border-transparent shadow-xs transition-colors outline-none",
        "focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50",
        "data-[state=checked]:bg-primary data-[state=unchecked]:bg-input",
        className,
      )}
      {...props}
    >
      <SwitchPrimitive.Thumb
        data-slot="switch-thumb"
        className="pointer-events-none block size-4 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-4 data-[state=unchecked]:translate-x-0.5"
      />
    </SwitchPrimitive.Root>
  );
}
