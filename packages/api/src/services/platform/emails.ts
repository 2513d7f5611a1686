// One plain, accessible layout for every email the product sends; each email has a text part too.
export interface EmailContent {
  subject: string;
  /** Short paragraphs, plain text (escaped for HTML here). */
  paragraphs: string[];
  action?: { label: string; url: string };
  /** A list of links under the paragraphs (a digest's notifications). */
  items?: { text: string; url: string }[];
  /** A closing line under the button, e.g. "This link expires in 15 minutes." */
  footnote?: string;
  /** A link under the footnote (e.g. the notification settings, one click away). */
  footerLink?: { label: string; url: string };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function renderEmail(content: EmailContent): { subject: string; text: string; html: string } {
  const text = [
    ...content.paragraphs,
    ...(content.items ?? []).map((item) => `- ${item.text}: ${item.url}`),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    ...(content.footnote ? [content.footnote] : []),
    ...(content.footerLink ? [`${content.footerLink.label}: ${content.footerLink.url}`] : []),
    "— Promptly",
  ].join("\n\n");
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#09090b">
<div style="max-width:480px;margin:0 auto;background:#fff;border:1px solid #e4e4e7;border-radius:8px;padding:24px">
<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(content.subject)}</h1>
${content.paragraphs.map((p) => `<p style="font-size:14px;line-height:1.5;margin:0 0 12px">${escapeHtml(p)}</p>`).join("\n")}
${content.items?.length ? `<ul style="font-size:14px;line-height:1.5;margin:0 0 12px;padding-left:20px">${content.items.map((item) => `<li style="margin:0 0 6px"><a href="${escapeHtml(item.url)}" style="color:#18181b">${escapeHtml(item.text)}</a></li>`).join("")}</ul>` : ""}
${content.action ? `<p style="margin:20px 0"><a href="${escapeHtml(content.action.url)}" style="background:#18181b;color:#fafafa;text-decoration:none;padding:10px 16px;border-radius:6px;font-size:14px;display:inline-block">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:12px;color:#71717a;word-break:break-all">Or open this link: ${escapeHtml(content.action.url)}</p>` : ""}
${content.footnote ? `<p style="font-size:12px;color:#71717a">${escapeHtml(content.footnote)}</p>` : ""}
${content.footerLink ? `<p style="font-size:12px"><a href="${escapeHtml(content.footerLink.url)}" style="color:#71717a">${escapeHtml(content.footerLink.label)}</a></p>` : ""}
</div></body></html>`;
  return { subject: content.subject, text, html };
}
