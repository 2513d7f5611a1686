// A popup panel anchored to its trigger, on Radix (the organization and team switchers).
import type { ComponentProps } from "react";
import * as PopoverPrimitive from "@radix-ui/react-popover";
import { cn } from "@/lib/utils";

export const Popover = PopoverPrimitive.Root;
export const PopoverTrigger = PopoverPrimitive.Trigger;
export const PopoverAnchor = PopoverPrimitive.Anchor;

/** Radix gives the content role=dialog, which needs a name: pass `aria-label` or `aria-labelledby`. */
type PopoverContentProps = ComponentProps<typeof PopoverPrimitive.Content> & ({ "aria-label": string } | { "aria-labelledby": string });

export function PopoverContent({ className, align = "center", sideOffset = 4, ...props }: PopoverContentProps) {
  return (
    <PopoverPrimitive.Portal>
      <PopoverPrimitive.Content
        data-slot="popover-content"
        align={align}
        sideOffset={sideOffset}
        className={cn("z-50 w-72 rounded-md border border-border bg-popover p-4 text-popover-foreground shadow-md outline-none", className)}
        {...props}
      />
    </PopoverPrimitive.Portal>
  );
}
