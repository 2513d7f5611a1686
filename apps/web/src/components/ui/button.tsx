import { useState, type ComponentProps, type MouseEvent } from "react";
import { Slot } from "@radix-ui/react-slot";
import { cn } from "@/lib/utils";
import { useFocused } from "./use-focused.ts";
import { Tooltip, TooltipContent, TooltipTrigger } from "./tooltip.tsx";

const base =
  "inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4 cursor-pointer";

const variants = {
  default: "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90",
  destructive: "bg-destructive text-destructive-foreground shadow-xs hover:bg-destructive/90",
  outline: "border border-border bg-background shadow-xs hover:bg-accent hover:text-accent-foreground",
  secondary: "bg-secondary text-secondary-foreground shadow-xs hover:bg-secondary/80",
  ghost: "hover:bg-accent hover:text-accent-foreground",
  link: "text-primary underline-offset-4 hover:underline",
} as const;

const sizes = {
  default: "h-9 px-4 py-2",
  sm: "h-8 rounded-md px-3 text-xs",
  lg: "h-10 rounded-md px-6",
  icon: "size-9",
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

/** Class names of a button, for links and triggers that look like one. */
export function buttonVariants({ variant = "default", size = "default", className }: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return cn(base, variants[variant], sizes[size], className);
}

export interface ButtonProps extends ComponentProps<"button"> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render the single child (e.g. a <Link>) with the button's look instead of a <button>. */
  asChild?: boolean;
  /**
   * Why the button cannot be used now: its tooltip (on hover and focus) while it is disabled. A button
   * that may explain itself is always given the prop, undefined when there is nothing to say (while
   * busy): its tooltip then stays around it, and the button is never remounted (which would lose focus).
   */
  disabledReason?: string | undefined;
}

const refuse = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();

export function Button(allProps: ButtonProps) {
  const { className, variant, size, asChild = false, type, disabled, disabledReason, onClick, onFocus, onBlur, ...props } = allProps;
  const explains = "disabledReason" in allProps && !asChild;
  const { focused, handlers: focusHandlers } = useFocused<HTMLButtonElement>(onFocus, onBlur);
  const [tooltipOpen, setTooltipOpen] = useState(false);
  const Component = asChild ? Slot : "button";
  // A native `disabled` drops focus to the page's body: a button that turns disabled while it has focus
  // (a save under way) only says so, and keeps focus; one with a reason stays reachable to tell it.
  const onlySaysDisabled = !asChild && !!disabled && (focused || !!disabledReason);
  const button = (
    <Component
      data-slot="button"
      className={buttonVariants({ variant, size, className })}
      {...(asChild ? {} : { type: type ?? "button" })}
      disabled={onlySaysDisabled ? undefined : disabled}
      aria-disabled={onlySaysDisabled ? true : undefined}
      onClick={onlySaysDisabled ? refuse : onClick}
      {...focusHandlers}
      {...props}
    />
  );
  if (!explains) return button;
  return (
    <Tooltip open={!!disabled && !!disabledReason && tooltipOpen} onOpenChange={setTooltipOpen}>
      <TooltipTrigger asChild>{button}</TooltipTrigger>
      {disabledReason && <TooltipContent>{disabledReason}</TooltipContent>}
    </Tooltip>
  );
}
