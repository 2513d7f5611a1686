// The comment renderer refuses scripts, event handlers, javascript: and data: links and raw HTML
// against the OWASP XSS filter-evasion strings, and Markdown's own ways to a link,
// rendered by the real component to static markup and read back by a real HTML parser (parse5, the
// parser of the HTML standard), which sees what a browser would.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { parseFragment } from "parse5";
import { describe, expect, it } from "vitest";
import { CommentMarkdown, isSafeHref, type MentionedPerson } from "./markdown.tsx";

const render = (body: string, mentions: MentionedPerson[] = []) => renderToStaticMarkup(createElement(CommentMarkdown, { body, mentions }));

interface Element {
  tagName: string;
  attrs: { name: string; value: string }[];
}
interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: Element["attrs"];
  childNodes?: Node[];
  content?: Node;
}

/** Every element of the markup, as a browser's parser builds them. */
function elementsOf(html: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Node) => {
    if (node.tagName) found.push({ tagName: node.tagName, attrs: node.attrs ?? [] });
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(parseFragment(html) as unknown as Node);
  return found;
}

/** The elements and attributes the subset may produce; anything else would be a hole. */
const ALLOWED: Record<string, readonly string[]> = {
  div: ["class"],
  p: [],
  br: [],
  em: [],
  strong: [],
  s: [],
  code: ["class"],
  pre: [],
  blockquote: [],
  ul: [],
  ol: ["start"],
  li: [],
  hr: [],
  a: ["href", "title", "rel", "target"],
  span: ["class", "data-user-id"],
};

/** What a browser would take as the scheme of an href: whitespace and control characters ignored. */
const schemeOf = (href: string) => /^([a-z][a-z0-9+.-]*):/.exec(href.replace(/[\u0000-\u0020\u007F-\u009F]/g, "").toLowerCase())?.[1];

function expectSafe(html: string) {
  for (const element of elementsOf(html)) {
    expect(Object.keys(ALLOWED), `<${element.tagName}> in ${html}`).toContain(element.tagName);
    for (const attr of element.attrs) {
      expect(attr.name, `an event handler in ${html}`).not.toMatch(/^on/i);
      expect(ALLOWED[element.tagName], `${attr.name} on <${element.tagName}> in ${html}`).toContain(attr.name);
      if (attr.name === "href") {
        expect(["http", "https", "mailto", undefined], `href ${attr.value}`).toContain(schemeOf(attr.value));
        expect(attr.value).not.toMatch(/^\s*(javascript|vbscript|data|file):/i);
      }
    }
  }
  expect(html).not.toMatch(/<script|<iframe|<svg|<img|<object|<embed|<style|<meta|<body|<input|<table|<link/i);
}

// From the OWASP XSS Filter Evasion Cheat Sheet.
const OWASP = [
  `<script>alert('XSS')</script>`,
  `<SCRIPT SRC=https://cdn.jsdelivr.net/gh/Moksh45/host-xss.rocks/index.js></SCRIPT>`,
  `javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/"\`/+/onmouseover=1/+/[*/[]/+alert(42);//'>`,
  `<IMG SRC="javascript:alert('XSS');">`,
  `<IMG SRC=JaVaScRiPt:alert('XSS')>`,
  `<IMG SRC=javascript:alert(&quot;XSS&quot;)>`,
  "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
  `<a onmouseover="alert(document.cookie)">xxs link</a>`,
  `<a onmouseover=alert(document.cookie)>xxs link</a>`,
  `<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>`,
  `<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>`,
  `<IMG SRC=# onmouseover="alert('xxs')">`,
  `<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>`,
  `<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">`,
  `<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`,
  `<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
  `<IMG SRC="jav\tascript:alert('XSS');">`,
  `<IMG SRC="jav&#x09;ascript:alert('XSS');">`,
  `<IMG SRC="jav&#x0A;ascript:alert('XSS');">`,
  `<IMG SRC=" &#14;  javascript:alert('XSS');">`,
  `<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>`,
  "<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert(\"XSS\")>",
  `<<SCRIPT>alert("XSS");//\\<</SCRIPT>`,
  `<SCRIPT SRC=http://xss.rocks/xss.js?< B >`,
  `<iframe src=http://xss.rocks/scriptlet.html <`,
  `</TITLE><SCRIPT>alert("XSS");</SCRIPT>`,
  `<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`,
  `<BODY BACKGROUND="javascript:alert('XSS')">`,
  `<IMG DYNSRC="javascript:alert('XSS')">`,
  `<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>`,
  `<svg/onload=alert('XSS')>`,
  `<svg><script>alert(1)</script></svg>`,
  `<BODY ONLOAD=alert('XSS')>`,
  `<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`,
  `<STYLE>@import'http://xss.rocks/xss.css';</STYLE>`,
  `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">`,
  `<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`,
  `<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`,
  `<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>`,
  `<TABLE BACKGROUND="javascript:alert('XSS')">`,
  `<DIV STYLE="background-image: url(javascript:alert('XSS'))">`,
  `<DIV STYLE="background-image:\\0075\\0072\\006C\\0028'\\006a\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a\\0061\\006c\\0065\\0072\\0074\\0028.1027\\0058.1053\\0053\\0027\\0029'\\0029">`,
  `<DIV STYLE="width: expression(alert('XSS'));">`,
  `<IMG STYLE="xss:expr/*XSS*/ession(alert('XSS'))">`,
  `<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>`,
  `<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L3N2Zz4=" type="image/svg+xml" AllowScriptAccess="always"></EMBED>`,
  `<!--[if gte IE 4]><SCRIPT>alert('XSS');</SCRIPT><![endif]-->`,
  `<A HREF="javascript:document.location='http://www.google.com/'">XSS</A>`,
  `<A HREF="http://66.102.7.147/">XSS</A><a href="javascript:alert(1)">x</a>`,
  `<form><button formaction=javascript:alert(1)>X</button></form>`,
  `<details open ontoggle=alert(1)>`,
];

// Markdown's own ways to a link or an image.
const MARKDOWN = [
  `[click](javascript:alert(1))`,
  `[click](JaVaScRiPt:alert(1))`,
  `[click](  javascript:alert(1) )`,
  `[click](<javascript:alert(1)>)`,
  `[click](<java\tscript:alert(1)>)`,
  `[click](<java\nscript:alert(1)>)`,
  `[click](javascript&#58;alert(1))`,
  `[click](javascript&#x3A;alert(1))`,
  `[click](&#106;avascript:alert(1))`,
  `[click](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1))`,
  `[click](javascript\\:alert(1))`,
  `[click](\u0001javascript:alert(1))`,
  `[click](vbscript:msgbox(1))`,
  `[click](file:///etc/passwd)`,
  `[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
  `[click](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)`,
  `[click](data:image/png;base64,iVBORw0KGgo=)`,
  `[click](DATA:text/html,<script>alert(1)</script>)`,
  `<javascript:alert(1)>`,
  `<data:text/html,<script>alert(1)</script>>`,
  `[ref]\n\n[ref]: javascript:alert(1)`,
  `[ref][x]\n\n[x]: <data:text/html;base64,PHNjcmlwdD4=>`,
  `![x](javascript:alert(1))`,
  `![x](x" onerror="alert(1))`,
  `![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)`,
  `[x](https://example.com" onmouseover="alert(1))`,
  `[x](https://example.com 'title" onmouseover="alert(1)')`,
  "`<script>alert(1)</script>`",
  "```html\n<script>alert(1)</script>\n```",
  `> <img src=x onerror=alert(1)>`,
  `* <svg onload=alert(1)>`,
  `@[<img src=x onerror=alert(1)>](user:00000000-0000-4000-8000-000000000001)`,
  `@[x" onmouseover="alert(1)](user:00000000-0000-4000-8000-000000000001)`,
];

describe("the comment renderer never lets a script or unsafe link through", () => {
  it.each(OWASP)("OWASP: %s", (input) => {
    const html = render(input);
    expectSafe(html);
    // Raw HTML is off: what looked like a tag is shown as text.
    if (/<[a-z!/]/i.test(input)) expect(html).toContain("&lt;");
  });

  it.each(MARKDOWN)("Markdown: %s", (input) => {
    expectSafe(render(input));
    expectSafe(render(input, [{ id: "00000000-0000-4000-8000-000000000001", fullName: `<img src=x onerror=alert(1)>` }]));
  });

  it("javascript: and data: never become links, whatever the spelling", () => {
    for (const input of MARKDOWN.slice(0, 22)) {
      expect(elementsOf(render(input)).filter((element) => element.tagName === "a"), input).toEqual([]);
    }
  });
});

describe("what the subset keeps", () => {
  it("emphasis, code, lists, quotes and line breaks", () => {
    const html = render("**bold** _it_ ~~gone~~ `code`\nnext line\n\n- one\n- two\n\n> quoted");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<em>it</em>");
    expect(html).toContain("<s>gone</s>");
    expect(html).toContain("<code>code</code>");
    expect(html).toMatch(/<br\/?>/);
    expect(html).toContain("<li>one</li>");
    expect(html).toContain("<blockquote>");
  });

  it("no headings, tables or images: they stay text", () => {
    const html = render("# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n![alt](https://example.com/x.png)");
    expectSafe(html);
    expect(html).not.toMatch(/<h1|<table|<img/);
    expect(html).toContain("# Title");
  });

  it("external links open in a new tab without the opener; relative and mailto links stay", () => {
    const [external] = elementsOf(render("[docs](https://example.com/docs)")).filter((element) => element.tagName === "a");
    expect(Object.fromEntries(external!.attrs.map((attr) => [attr.name, attr.value]))).toEqual({
      href: "https://example.com/docs",
      rel: "noopener noreferrer nofollow",
      target: "_blank",
    });
    const [autolinked] = elementsOf(render("see https://example.com/a?b=1")).filter((element) => element.tagName === "a");
    expect(autolinked!.attrs.find((attr) => attr.name === "target")?.value).toBe("_blank");
    const [relative] = elementsOf(render("[v2](/prompts/abc?version=2)")).filter((element) => element.tagName === "a");
    expect(Object.fromEntries(relative!.attrs.map((attr) => [attr.name, attr.value]))).toEqual({
      href: "/prompts/abc?version=2",
      rel: "noopener noreferrer nofollow",
    });
    expect(render("[mail](mailto:someone@example.com)")).toContain(`href="mailto:someone@example.com"`);
  });

  it("a mention shows the person's name of today; a mention the server did not resolve is plain text", () => {
    const id = "11111111-2222-4333-8444-555555555555";
    const body = `Hi @[Old Name](user:${id}) and @[Stranger](user:99999999-2222-4333-8444-555555555555)`;
    const html = render(body, [{ id, fullName: "New Name" }]);
    expect(html).toContain(`<span class="comment-mention" data-user-id="${id}">@New Name</span>`);
    expect(html).toContain("and @Stranger");
    expect(html).not.toContain("user:");
  });

  it("isSafeHref", () => {
    expect(["https://a.example", "http://a.example", "mailto:x@y.example", "/x", "x/y", "#top", "?q=1"].every(isSafeHref)).toBe(true);
    expect(["javascript:x", " JAVASCRIPT:x", "java\tscript:x", "data:text/html,x", "vbscript:x", "file:///x", "\\\\evil"].some(isSafeHref)).toBe(false);
  });
});
