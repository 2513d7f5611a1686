import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

const variants = {
  default: "bg-card text-card-foreground",
  destructive: "border-destructive/50 bg-card text-destructive [&>svg]:text-current *:data-[slot=alert-description]:text-destructive/90",
  // Something worked (a link sent, an address confirmed): green, not the look of a notice or a failure.
  // green-800 on green-50 is about 6.8:1.
  success: "border-green-700/40 bg-green-50 text-green-800 [&>svg]:text-current *:data-[slot=alert-description]:text-green-800",
} as const;

export function Alert({ className, variant = "default", ...props }: ComponentProps<"div"> & { variant?: keyof typeof variants }) {
  return (
    <div
      data-slot="alert"
      // A success is news, not an interruption: announced politely.
      role={variant === "success" ? "status" : "alert"}
      className={cn(
        "relative grid w-full grid-cols-[0_1fr] items-start gap-y-0.5 rounded-lg border border-border px-4 py-3 text-sm has-[>svg]:grid-cols-[calc(var(--spacing)*4)_1fr] has-[>svg]:gap-x-3 [&>svg]:size-4 [&>svg]:translate-y-0.5",
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="alert-title" className={cn("col-start-2 min-h-4 font-medium tracking-tight wrap-break-word", className)} {...props} />;
}

export function AlertDescription({ className, ...props }: ComponentProps<"div">) {
  return <div data-slot="alert-description" className={cn("col-start-2 grid justify-items-start gap-1 text-sm text-muted-foreground [&_p]:leading-relaxed", className)} {...props} />;
}
