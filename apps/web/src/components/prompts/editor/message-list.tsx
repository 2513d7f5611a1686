// A chat prompt's messages: each with its role and content, added, removed and moved; and its
// placeholders, each its own block naming where a list of messages goes when the prompt is used.
import { ArrowDown, ArrowUp, ListPlus, Plus, Trash2 } from "lucide-react";
import type { ChatRole } from "@promptly/shared";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { RoleSelect } from "@/components/prompts/role-select";
import { CodeEditor } from "./code-editor.tsx";
import { newMessage, type DraftMessage } from "./draft.ts";
import { placeholderText } from "../page/chat-messages.tsx";

interface MessageListProps {
  messages: DraftMessage[];
  onChange(messages: DraftMessage[]): void;
}

const nextRole = (messages: DraftMessage[]): ChatRole => (messages.filter((m) => m.role !== "placeholder").at(-1)?.role === "user" ? "assistant" : "user");
/** A new placeholder's name: `history`, or `history_2`... when taken. */
const nextPlaceholderName = (messages: DraftMessage[]) => {
  const taken = new Set(messages.filter((m) => m.role === "placeholder").map((m) => m.content.trim()));
  let name = "history";
  for (let n = 2; taken.has(name); n++) name = `history_${n}`;
  return name;
};

export function MessageList({ messages, onChange }: MessageListProps) {
  const update = (id: number, change: Partial<DraftMessage>) => onChange(messages.map((m) => (m.id === id ? { ...m, ...change } : m)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...messages];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    onChange(next);
  };

  return (
    <div className="grid gap-4">
      <ol className="grid gap-4">
        {messages.map((message, index) => (
          <MessageItem
            key={message.id}
            message={message}
            number={index + 1}
            isFirst={index === 0}
            isLast={index === messages.length - 1}
            onRole={(role) => update(message.id, { role })}
            onContent={(content) => update(message.id, { content })}
            onMove={(by) => move(index, by)}
            onRemove={() => onChange(messages.filter((m) => m.id !== message.id))}
          />
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => onChange([...messages, newMessage(nextRole(messages))])}>
          <Plus aria-hidden="true" />
          Add message
        </Button>
        <Button variant="outline" size="sm" onClick={() => onChange([...messages, newMessage("placeholder", nextPlaceholderName(messages))])}>
          <ListPlus aria-hidden="true" />
          Add placeholder
        </Button>
      </div>
    </div>
  );
}

interface MessageItemProps {
  message: DraftMessage;
  number: number;
  isFirst: boolean;
  isLast: boolean;
  onRole(role: ChatRole): void;
  onContent(content: string): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

function MessageItem({ message, number, isFirst, isLast, onRole, onContent, onMove, onRemove }: MessageItemProps) {
  const placeholder = message.role === "placeholder";
  return (
    <li className={placeholder ? "grid gap-2 rounded-md border border-dashed border-border bg-muted/40 p-3" : "grid gap-2 rounded-md border border-border p-3"}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">Message {number}</span>
        {message.role === "placeholder" ? (
          <span className="text-sm text-muted-foreground">Placeholder</span>
        ) : (
          <RoleSelect value={message.role} onChange={onRole} size="sm" label={`Role of message ${number}`} />
        )}
        <div className="ml-auto flex gap-1">
          <Button variant="ghost" size="icon" aria-label={`Move message ${number} up`} disabled={isFirst} onClick={() => onMove(-1)}>
            <ArrowUp aria-hidden="true" />
          </Button>
          <Button variant="ghost" size="icon" aria-label={`Move message ${number} down`} disabled={isLast} onClick={() => onMove(1)}>
            <ArrowDown aria-hidden="true" />
          </Button>
          <Button variant="ghost" size="icon" aria-label={`Remove message ${number}`} onClick={onRemove}>
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
      {placeholder ? (
        <div className="grid gap-2">
          <Input
            aria-label={`Placeholder name of message ${number}`}
            className="max-w-xs font-mono"
            value={message.content}
            onChange={(event) => onContent(event.target.value)}
          />
          <p className="font-mono text-sm text-muted-foreground">{placeholderText(message.content.trim() || "…")}</p>
        </div>
      ) : (
        <CodeEditor label={`Message ${number} content`} value={message.content} onChange={onContent} placeholder="Write the message. Use {{ name }} for variables." />
      )}
    </li>
  );
}
