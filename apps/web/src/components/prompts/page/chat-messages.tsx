// Chat messages by role; `render` shows each content (highlighted template or compiled text). A
// placeholder is its own block: where a list of messages goes when the prompt is used.
import type { ReactNode } from "react";
import type { MessagePlaceholder } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";

/** What a placeholder block says: `history: messages go here`. */
export const placeholderText = (name: string) => `${name}: messages go here`;

/** A message as shown: a role's (a run's tool results included), or a placeholder. */
type ShownMessage = { role: string; content: string } | MessagePlaceholder;
const isPlaceholderBlock = (message: ShownMessage): message is MessagePlaceholder => "type" in message && message.type === "placeholder";

export function ChatMessages({ messages, label, render }: { messages: readonly ShownMessage[]; label: string; render(content: string): ReactNode }) {
  return (
    <ol aria-label={label} className="grid gap-3">
      {messages.map((message, index) =>
        isPlaceholderBlock(message) ? (
          <li key={index} className="grid min-w-0 gap-2 rounded-md border border-dashed border-border bg-muted/40 p-3" data-placeholder={message.name}>
            <Badge variant="secondary">Placeholder</Badge>
            <p className="font-mono text-sm text-muted-foreground">{placeholderText(message.name)}</p>
          </li>
        ) : (
          <li key={index} className="grid min-w-0 gap-2 rounded-md border border-border p-3" data-role={message.role}>
            <Badge variant="outline" className="capitalize">
              {message.role}
            </Badge>
            {render(message.content)}
          </li>
        ),
      )}
    </ol>
  );
}
