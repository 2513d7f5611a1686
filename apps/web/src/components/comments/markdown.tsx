// The one renderer of comment text: a safe Markdown subset by markdown-it with raw HTML
// off, so anything that looks like HTML is shown as text. Links are kept only for http(s), mailto and
// relative addresses, and open safely. `@[Name](user:<uuid>)` mentions show the person's name of
// today (from the server's list), or the written name as plain text when the server named nobody.
import MarkdownIt from "markdown-it";
import type { StateInline } from "markdown-it";
import { cn } from "../../lib/utils.ts";

/** A mentioned person as the server names them. */
export interface MentionedPerson {
  id: string;
  fullName: string | null;
}

type RenderEnv = { mentions?: Map<string, MentionedPerson> };

const SCHEME = /^([a-z][a-z0-9+.-]*):/;
const ALLOWED_SCHEMES = new Set(["http", "https", "mailto"]);

/**
 * Whether a link may be an href: http(s), mailto, or no scheme at all (relative). Browsers ignore
 * whitespace and control characters around and inside a scheme ("java\tscript:"), so they are
 * dropped (also when percent-encoded) before the scheme is read.
 */
export function isSafeHref(url: string): boolean {
  // Percent escapes are read too (markdown-it encodes what it finds): "java%09script:" is refused, not trusted to stay relative.
  const decoded = url.replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const probe = decoded.replace(/[\u0000-\u0020\u007F-\u009F]/g, "").toLowerCase();
  const scheme = SCHEME.exec(probe)?.[1];
  if (scheme === undefined) return !probe.startsWith("\\") && !probe.startsWith("/\\");
  return ALLOWED_SCHEMES.has(scheme);
}

const isExternal = (href: string) => /^(https?:)?\/\//i.test(href.trim());

const MENTION = /^@\[([^\[\]\n]{1,100})\]\(user:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\)/i;

/** An inline rule: `@[Name](user:<uuid>)` becomes one `mention` token. */
function mentionRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
  const match = MENTION.exec(state.src.slice(state.pos, state.posMax));
  if (!match) return false;
  if (!silent) {
    const token = state.push("mention", "", 0);
    token.meta = { name: match[1], userId: match[2]!.toLowerCase() };
  }
  state.pos += match[0].length;
  return true;
}

function createRenderer() {
  const md = new MarkdownIt("default", { html: false, linkify: true, breaks: true, typographer: false });
  // The subset: paragraphs, emphasis, strikethrough, code, lists, quotes, links. No images (no
  // tracking pixels, no data: URLs), no headings or tables in a comment, no raw HTML at all.
  md.disable(["image", "heading", "lheading", "table", "html_block", "html_inline"]);
  md.validateLink = isSafeHref;
  md.inline.ruler.after("text", "mention", mentionRule);

  md.renderer.rules.mention = (tokens, index, _options, env) => {
    const { name, userId } = tokens[index]!.meta as { name: string; userId: string };
    const person = (env as RenderEnv | undefined)?.mentions?.get(userId);
    if (!person) return md.utils.escapeHtml(`@${name}`);
    return `<span class="comment-mention" data-user-id="${md.utils.escapeHtml(person.id)}">@${md.utils.escapeHtml(person.fullName ?? name)}</span>`;
  };
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
  md.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    token.attrSet("rel", "noopener noreferrer nofollow");
    if (isExternal(String(token.attrGet("href") ?? ""))) token.attrSet("target", "_blank");
    return defaultLinkOpen(tokens, index, options, env, self);
  };
  return md;
}

const renderer = createRenderer();

/** The HTML of a comment's text: only the subset's elements, every text escaped. */
function renderCommentHtml(body: string, mentions: readonly MentionedPerson[] = []): string {
  const env: RenderEnv = { mentions: new Map(mentions.map((person) => [person.id.toLowerCase(), person])) };
  return renderer.render(body, env);
}

export function CommentMarkdown({ body, mentions, className }: { body: string; mentions?: readonly MentionedPerson[]; className?: string }) {
  return (
    <div
      className={cn("comment-markdown min-w-0 text-sm break-words", className)}
      // Safe by construction: markdown-it escapes all text and raw HTML is off (see the renderer's tests).
      dangerouslySetInnerHTML={{ __html: renderCommentHtml(body, mentions) }}
    />
  );
}
