// Set the organization's price of one model (over the built-in one, if any), or add a model's price.
// Checked with the procedure's own input schema; a refusal of the server shows in the form.
import { useEffect, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { setModelPriceInput } from "@promptly/shared";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { FormFooter } from "@/components/ui/form-footer";
import { Input } from "@/components/ui/input";
import { trpc } from "@/lib/trpc";
import { placeServerError, type ModelPrice } from "./provider-labels.ts";

type Field = "model" | "inputPerMillion" | "outputPerMillion";

export interface PriceDialogProps {
  organizationId: string;
  /** Open: "new" to add a model's price, a row to change it; null: closed. */
  editing: ModelPrice | "new" | null;
  onOpenChange(open: boolean): void;
}

/** A typed amount as a number; empty or not a number stays NaN, which the schema refuses with its message. */
const amount = (value: string) => (value.trim() === "" ? Number.NaN : Number(value.replace(",", ".")));

export function PriceDialog({ organizationId, editing, onOpenChange }: PriceDialogProps) {
  const utils = trpc.useUtils();
  const row = editing && editing !== "new" ? editing : null;
  const [model, setModel] = useState("");
  const [input, setInput] = useState("");
  const [output, setOutput] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (!editing) return;
    setModel(row?.model ?? "");
    setInput(row ? String(row.inputPerMillion) : "");
    setOutput(row ? String(row.outputPerMillion) : "");
    setErrors({});
    setFormError(null);
  }, [editing, row]);

  const setPrice = trpc.providers.setPrice.useMutation({
    async onSuccess(saved) {
      toast.success("Price saved", { description: `${saved.model}: $${saved.inputPerMillion} in, $${saved.outputPerMillion} out per million tokens.` });
      await utils.providers.prices.invalidate({ organizationId });
      onOpenChange(false);
    },
    onError(error) {
      const placed = placeServerError(error);
      setErrors(placed.fields as Partial<Record<Field, string>>);
      setFormError(placed.form);
    },
  });
  const busy = setPrice.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = setModelPriceInput.safeParse({ organizationId, model, inputPerMillion: amount(input), outputPerMillion: amount(output) });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setPrice.mutate(parsed.data);
  }

  const title = row ? `Price of ${row.model}` : "Add a model price";
  return (
    <Dialog open={!!editing} onOpenChange={(open) => !busy && onOpenChange(open)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="wrap-anywhere">{title}</DialogTitle>
          <DialogDescription>
            {row?.source === "default"
              ? "US dollars per million tokens. Your price replaces the built-in one for this organization."
              : "US dollars per million tokens, for this organization."}
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" aria-label={title} onSubmit={submit}>
          {!row && (
            <FormField label="Model" error={errors.model} description="The model's name as the provider spells it, e.g. gpt-4o-mini.">
              <Input autoComplete="off" spellCheck={false} disabled={busy} value={model} onChange={(event) => setModel(event.target.value)} />
            </FormField>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Input per million tokens ($)" error={errors.inputPerMillion}>
              <Input type="number" inputMode="decimal" min={0} step="any" disabled={busy} value={input} onChange={(event) => setInput(event.target.value)} />
            </FormField>
            <FormField label="Output per million tokens ($)" error={errors.outputPerMillion}>
              <Input type="number" inputMode="decimal" min={0} step="any" disabled={busy} value={output} onChange={(event) => setOutput(event.target.value)} />
            </FormField>
          </div>
          <FormFooter serverError={formError} busy={busy} submitLabel="Save price" onCancel={() => onOpenChange(false)} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
