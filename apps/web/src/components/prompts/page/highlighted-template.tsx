// A template as written, its `{{ variables }}` marked (an escaped `\{{` stays plain text) and its
// includes (`@@@langfusePrompt:name=...|label=...@@@`) marked apart. A marked variable never breaks
// across lines: the line breaks before it instead; an include, one long word, breaks anywhere.
import type { ReactNode } from "react";

const VARIABLE = /(\\\{\{)|\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|(@@@langfusePrompt:.*?@@@)/g;

export function HighlightedTemplate({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let from = 0;
  for (const match of text.matchAll(VARIABLE)) {
    if (match[1] !== undefined) continue;
    if (match.index > from) parts.push(text.slice(from, match.index));
    if (match[3] !== undefined) {
      parts.push(
        <mark key={match.index} data-include="" className="rounded-sm bg-sky-100 px-0.5 break-all text-foreground dark:bg-sky-500/30">
          {match[0]}
        </mark>,
      );
      from = match.index + match[0].length;
      continue;
    }
    parts.push(
      <mark key={match.index} data-variable={match[2]} className="rounded-sm bg-amber-200/70 px-0.5 whitespace-nowrap text-foreground dark:bg-amber-500/30">
        {match[0]}
      </mark>,
    );
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return <pre className="font-mono text-sm break-words whitespace-pre-wrap">{parts}</pre>;
}
