import { useId, type ComponentProps } from "react";
import { Input } from "@/components/ui/input";

/**
 * A model's name, free text with the connection's models offered as suggestions (a datalist) and the
 * first of them as the placeholder. Props go to the input, so a FormField labels it as any field.
 */
export function ModelInput({ models, ...props }: ComponentProps<typeof Input> & { models: readonly string[] | undefined }) {
  const listId = useId();
  const offered = models?.length ? models : null;
  return (
    <>
      <Input autoComplete="off" placeholder={models?.[0] ?? "e.g. gpt-4o-mini"} list={offered ? listId : undefined} {...props} />
      {offered && (
        <datalist id={listId}>
          {offered.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
      )}
    </>
  );
}
