// A small strict XML reader for tests of the XML the server writes (the eval command's JUnit XML):
// elements, attributes and text, no comments or CDATA; it throws where the document is not well-formed.
interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const NAME = "[A-Za-z_][\\w.-]*";

/** Entities decoded; throws on a raw '<', a bare '&' or an unknown entity. */
function decode(text: string, where: string): string {
  if (text.includes("<")) throw new Error(`a raw '<' in ${where}`);
  return text.replace(/&([^;\s]*);?/g, (whole, entity: string) => {
    if (!whole.endsWith(";") || !(entity in ENTITIES)) throw new Error(`a bare '&' or unknown entity in ${where}: ${whole}`);
    return ENTITIES[entity]!;
  });
}

/** A strict reader of the XML this writer makes (elements, attributes, text; no comments or CDATA): throws where it is not well-formed. */
export function readXml(xml: string): XmlElement {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/;
  if (!declaration.test(xml)) throw new Error("no XML declaration");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(xml)) throw new Error("a character XML cannot hold");
  const tokens = xml.replace(declaration, "").split(/(<[^>]*>)/).filter((token) => token !== "");
  const root: XmlElement = { name: "#document", attributes: {}, children: [], text: "" };
  const stack = [root];
  for (const token of tokens) {
    const top = stack.at(-1)!;
    if (!token.startsWith("<")) {
      top.text += decode(token, top.name);
      continue;
    }
    const closing = new RegExp(`^</(${NAME})>$`).exec(token);
    if (closing) {
      if (closing[1] !== top.name) throw new Error(`</${closing[1]}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const opening = new RegExp(`^<(${NAME})((?:\\s+${NAME}="[^"]*")*)\\s*(/?)>$`).exec(token);
    if (!opening) throw new Error(`not a tag: ${token}`);
    const attributes: Record<string, string> = {};
    for (const [, name, value] of opening[2]!.matchAll(new RegExp(`(${NAME})="([^"]*)"`, "g"))) {
      if (name! in attributes) throw new Error(`attribute ${name} twice`);
      attributes[name!] = decode(value!, `${opening[1]}@${name}`);
    }
    const element: XmlElement = { name: opening[1]!, attributes, children: [], text: "" };
    top.children.push(element);
    if (!opening[3]) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  if (root.children.length !== 1 || root.text.trim()) throw new Error("not one root element");
  return root.children[0]!;
}
