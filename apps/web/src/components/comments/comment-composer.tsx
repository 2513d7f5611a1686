// Writing a comment: a new thread (optionally "on v3"), a reply, or an edit. The text is checked by
// the server's own schema before it is sent; a refusal shows the server's words under the field.
import { useId, useState } from "react";
import { commentBodySchema, versionLabel } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { MentionTextarea } from "./mention-textarea.tsx";

interface Props {
  promptId: string;
  /** The field's name: "Comment", "Reply", "Edit comment". */
  label: string;
  /** Visible label or only for screen readers (a reply box under its thread says enough). */
  hideLabel?: boolean;
  initialBody?: string;
  submitLabel: string;
  pendingLabel: string;
  /** New threads only: the version being viewed, and whether the comment starts tied to it. */
  version?: { number: number; tiedByDefault: boolean };
  autoFocus?: boolean;
  onSubmit(body: string, version: number | undefined): Promise<unknown>;
  onCancel?(): void;
}

export function CommentComposer({ promptId, label, hideLabel, initialBody = "", submitLabel, pendingLabel, version, autoFocus, onSubmit, onCancel }: Props) {
  const fieldId = useId();
  const errorId = useId();
  const hintId = useId();
  const [body, setBody] = useState(initialBody);
  const [tied, setTied] = useState(version?.tiedByDefault ?? false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    const parsed = commentBodySchema.safeParse(body);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    setPending(true);
    try {
      await onSubmit(parsed.data, version && tied ? version.number : undefined);
      setBody("");
    } catch (failure) {
      setError((failure as { message?: string }).message ?? "The comment could not be saved");
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="grid min-w-0 gap-2" onSubmit={(event) => void submit(event)} aria-label={label}>
      <Label htmlFor={fieldId} className={hideLabel ? "sr-only" : undefined}>
        {label}
      </Label>
      <MentionTextarea
        id={fieldId}
        promptId={promptId}
        value={body}
        onValueChange={(next) => {
          setBody(next);
          if (error) setError(null);
        }}
        placeholder="Write a comment. Markdown works; type @ to mention someone."
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        disabled={pending}
        autoFocus={autoFocus}
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) void submit(event);
          if (event.key === "Escape" && onCancel) onCancel();
        }}
      />
      <p id={hintId} className="sr-only">
        Type @ and a name to mention someone. Control and Enter sends.
      </p>
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        {version ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" checked={tied} disabled={pending} onChange={(event) => setTied(event.target.checked)} />
            On {versionLabel(version.number)}
          </label>
        ) : (
          <span />
        )}
        <div className="flex gap-2">
          {onCancel && (
            <Button type="button" variant="outline" size="sm" disabled={pending} onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" size="sm" disabled={pending}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </div>
      </div>
    </form>
  );
}
