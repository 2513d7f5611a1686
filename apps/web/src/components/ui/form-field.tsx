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
  return (
    <div data-slot="form-field" className={cn("grid grid-cols-1 gap-2", className)}>
      {labelAside ? (
        <div className="flex items-center justify-between gap-2">
          <Label htmlFor={controlId} className={cn(error && "text-destructive")}>{label}</Label>
          {labelAside}
        </div>
      ) : (
        <Label htmlFor={controlId} className={cn(error && "text-destructive")}>{label}</Label>
      )}
      <Slot id={controlId} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
        {children}
      </Slot>
      {description && (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
