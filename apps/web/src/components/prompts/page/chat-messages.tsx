// Chat messages by role; `render` shows each content (highlighted template or compiled text).
import type { ReactNode } from "react";
import type { ChatMessage } from "@promptly/shared";
import { Badge } from "@/components/ui/badge";

export function ChatMessages({ messages, label, render }: { messages: ChatMessage[]; label: string; render(content: string): ReactNode }) {
  return (
    <ol aria-label={label} className="grid gap-3">
      {messages.map((message, index) => (
        <li key={index} className="grid min-w-0 gap-2 rounded-md border border-border p-3" data-role={message.role}>
          <Badge variant="outline" className="capitalize">
            {message.role}
          </Badge>
          {render(message.content)}
        </li>
      ))}
    </ol>
  );
}
