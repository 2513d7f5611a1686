// One form row for react-hook-form: label, the control and its error message, wired for screen readers.
//   <FormField label="Email" error={errors.email?.message}>
//     <Input type="email" {...register("email")} />
//   </FormField>
// The single child receives id, aria-invalid and aria-describedby (its own props win).
import { useId, type ReactElement, type ReactNode } from "react";
import { Slot } from "@radix-ui/react-slot";
import { Label } from "./label.tsx";
import { cn } from "@/lib/utils";

export interface FormFieldProps {
  label: ReactNode;
  /** The validation message; shown below the control and announced. */
  error?: string;
  /** Help text below the control. */
  description?: ReactNode;
  /** The control's id; generated when omitted. */
  id?: string;
  className?: string;
  /** Rendered next to the label, e.g. a 'Forgot password?' link. */
  labelAside?: ReactNode;
  children: ReactElement;
}

export function FormField({ label, error, description, id, className, labelAside, children }: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? `field-${generated}`;
  const descriptionId = description ? `${controlId}-description` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(" ") || undefined;
  const labelElement = <Label htmlFor={controlId} className={cn(error && "text-destructive", labelAside && "col-start-1 row-start-1")}>{label}</Label>;
  return (
    // With an aside the grid puts it beside the label on screen while it follows the control in the
    // page's order: Tab from the field before goes to this control first, then to the aside.
    <div data-slot="form-field" className={cn("grid gap-2", labelAside ? "grid-cols-[1fr_auto]" : "grid-cols-1", className)}>
      {labelElement}
      <Slot
        id={controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={labelAside ? "col-span-2 row-start-2" : undefined}
      >
        {children}
      </Slot>
      {labelAside && <div className="col-start-2 row-start-1 self-center">{labelAside}</div>}
      {description && (
        <p id={descriptionId} className={cn("text-sm text-muted-foreground", labelAside && "col-span-2")}>
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className={cn("text-sm text-destructive", labelAside && "col-span-2")}>
          {error}
        </p>
      )}
    </div>
  );
}
