// A comment's text field with `@` mentions: typing `@` and part of a name or address opens a listbox
// of the people who may read the prompt (a combobox in ARIA's words: arrows move, Enter or Tab picks,
// Escape closes). Picking shows `@Name` in the box; the value it hands on (and the server stores)
// has the person's `@[Name](user:<uuid>)` token there (tokensToMentions / mentionsToTokens).
import { useId, useLayoutEffect, useRef, useState, type ComponentProps, type KeyboardEvent } from "react";
import { displayName, initials, mentionToken, mentionsToTokens, tokensToMentions, type TypedMention } from "@promptly/shared";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Textarea } from "@/components/ui/textarea";
import { trpc } from "@/lib/trpc";
import { cn } from "@/lib/utils";

/** The `@query` just before the caret: at the start or after a space, up to 30 characters of a name or an address. */
const MENTION_QUERY = /(?:^|\s)@([^\s[\]()]{0,30})$/;

interface Props extends Omit<ComponentProps<"textarea">, "value" | "onChange"> {
  promptId: string;
  /** The text with mention tokens, as stored. */
  value: string;
  onValueChange(value: string): void;
}

export function MentionTextarea({ promptId, value, onValueChange, onKeyDown, className, ...props }: Props) {
  const listboxId = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  // What the box shows (`@Name`) and the mentions in it, read from the value each time: a value set from
  // outside (cleared after posting, an edit's text) shows as it is, and a name edited in the box is
  // plain text from then on.
  const shown = tokensToMentions(value);
  const change = (text: string, mentions: TypedMention[]) => onValueChange(mentionsToTokens(text, mentions));
  // Where the `@` of the mention being typed is, and what follows it; null when none is typed.
  const [typing, setTyping] = useState<{ at: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  // Where the caret goes once a pick's text is in the box: set as that render commits, before the next
  // keystroke is handled (a frame later, a fast typist's next letter would land first and be passed).
  const caretAfterPick = useRef<number | null>(null);
  useLayoutEffect(() => {
    const position = caretAfterPick.current;
    if (position === null || !ref.current) return;
    caretAfterPick.current = null;
    ref.current.focus();
    ref.current.setSelectionRange(position, position);
  });
  const candidates = trpc.comments.mentionCandidates.useQuery(
    { promptId, q: typing?.query ?? "" },
    { enabled: typing !== null, placeholderData: (previous) => previous, staleTime: 30_000 },
  );
  const people = typing ? (candidates.data ?? []) : [];
  const open = typing !== null && people.length > 0;

  const readTyping = (text: string, caret: number) => {
    const match = MENTION_QUERY.exec(text.slice(0, caret));
    setTyping(match ? { at: caret - match[1]!.length - 1, query: match[1]! } : null);
    setActive(0);
  };

  const pick = (person: { id: string; fullName: string | null; email: string }) => {
    if (!typing) return;
    const caret = typing.at + 1 + typing.query.length;
    // The name as its token will hold it, so that the box's `@Name` turns back into that token.
    const [mention] = tokensToMentions(mentionToken({ id: person.id, name: displayName(person.fullName, person.email) })).mentions;
    const inserted = `@${mention!.name} `;
    const text = shown.text.slice(0, typing.at) + inserted + shown.text.slice(caret);
    change(text, [...shown.mentions.filter((known) => known.name !== mention!.name), mention!]);
    setTyping(null);
    caretAfterPick.current = typing.at + inserted.length;
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((index) => (index + step + people.length) % people.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        const person = people[active];
        if (person) pick(person);
        return;
      }
      if (event.key === "Escape") {
        // Closes the list only, not a dialog around the field.
        event.preventDefault();
        event.stopPropagation();
        setTyping(null);
        return;
      }
    }
    onKeyDown?.(event);
  };

  const optionId = (index: number) => `${listboxId}-option-${index}`;
  return (
    <div className="relative min-w-0">
      <Textarea
        ref={ref}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listboxId : undefined}
        aria-activedescendant={open ? optionId(active) : undefined}
        value={shown.text}
        onChange={(event) => {
          change(event.target.value, shown.mentions);
          readTyping(event.target.value, event.target.selectionStart);
        }}
        onKeyDown={handleKeyDown}
        onClick={(event) => readTyping(event.currentTarget.value, event.currentTarget.selectionStart)}
        onBlur={() => setTyping(null)}
        className={cn("min-h-20", className)}
        {...props}
      />
      {open && (
        <ul
          id={listboxId}
          role="listbox"
          aria-label="People to mention"
          className="absolute top-full left-0 z-20 mt-1 max-h-64 w-full max-w-sm overflow-y-auto rounded-md border border-border bg-popover p-1 text-popover-foreground shadow-md"
        >
          {people.map((person, index) => (
            <li
              key={person.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              // Keeps the focus in the text field, which the listbox belongs to.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(person)}
              onMouseEnter={() => setActive(index)}
              className={cn("flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm", index === active && "bg-accent text-accent-foreground")}
            >
              <Avatar className="size-6">
                {person.avatarUrl && <AvatarImage src={person.avatarUrl} alt="" />}
                <AvatarFallback className="text-[10px]">{initials(person.fullName, person.email).slice(0, 2)}</AvatarFallback>
              </Avatar>
              <span className="min-w-0 truncate">{displayName(person.fullName, person.email)}</span>
              <span className="truncate text-xs text-muted-foreground">{person.email}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
