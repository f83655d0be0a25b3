/**
 * A strict reader for the XML our JUnit reports use (elements, attributes, text, character and
 * the five predefined entity references, a leading declaration, comments). No XML parser is
 * installed; this one rejects what a real one rejects in that subset: a raw `<` or `&` in text
 * or attributes, unknown entities, unquoted or duplicate attributes, mismatched or unclosed tags,
 * characters XML 1.0 forbids, anything after the root element.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const NAME = /^[A-Za-z_:][\w.:-]*/;
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function decode(raw: string, where: number): string {
  if (raw.includes("<")) throw new Error(`raw "<" at ${where}`);
  return raw.replace(/&([^;]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(";")) throw new Error(`bare "&" at ${where}`);
    if (ref in ENTITIES) return ENTITIES[ref]!;
    const m = /^#(?:x([0-9a-fA-F]+)|(\d+))$/.exec(ref);
    if (!m) throw new Error(`unknown entity &${ref}; at ${where}`);
    return String.fromCodePoint(m[1] ? parseInt(m[1], 16) : Number(m[2]));
  });
}

/** Parses a document and returns its root element; throws on anything not well-formed. */
export function parseXml(xml: string): XmlElement {
  if (FORBIDDEN.test(xml)) throw new Error("a character XML 1.0 does not allow");
  let i = 0;
  const skip = () => {
    for (;;) {
      const before = i;
      while (/\s/.test(xml[i] ?? "")) i++;
      if (xml.startsWith("<!--", i)) {
        const end = xml.indexOf("-->", i);
        if (end < 0) throw new Error("unclosed comment");
        i = end + 3;
      }
      if (i === before) return;
    }
  };
  if (xml.startsWith("<?xml")) {
    const end = xml.indexOf("?>");
    if (end < 0) throw new Error("unclosed declaration");
    i = end + 2;
  }
  skip();
  const element = (): XmlElement => {
    if (xml[i] !== "<") throw new Error(`expected "<" at ${i}`);
    i++;
    const name = NAME.exec(xml.slice(i))?.[0];
    if (!name) throw new Error(`bad element name at ${i}`);
    i += name.length;
    const node: XmlElement = { name, attributes: {}, children: [], text: "" };
    for (;;) {
      const space = /^\s*/.exec(xml.slice(i))![0].length;
      i += space;
      if (xml.startsWith("/>", i)) return ((i += 2), node);
      if (xml[i] === ">") break;
      if (!space) throw new Error(`expected whitespace before an attribute at ${i}`);
      const attr = NAME.exec(xml.slice(i))?.[0];
      if (!attr) throw new Error(`bad attribute name at ${i}`);
      i += attr.length;
      const m = /^\s*=\s*(["'])/.exec(xml.slice(i));
      if (!m) throw new Error(`unquoted attribute ${attr} at ${i}`);
      i += m[0].length;
      const end = xml.indexOf(m[1]!, i);
      if (end < 0) throw new Error(`unclosed attribute ${attr}`);
      if (attr in node.attributes) throw new Error(`duplicate attribute ${attr}`);
      node.attributes[attr] = decode(xml.slice(i, end), i);
      i = end + 1;
    }
    i++;
    for (;;) {
      const next = xml.indexOf("<", i);
      if (next < 0) throw new Error(`unclosed <${name}>`);
      node.text += decode(xml.slice(i, next), i);
      i = next;
      if (xml.startsWith("<!--", i)) skip();
      else if (xml.startsWith("</", i)) {
        const close = `</${name}`;
        if (!xml.startsWith(close, i) || !/^\s*>/.test(xml.slice(i + close.length))) throw new Error(`mismatched closing tag at ${i}, expected </${name}>`);
        i = xml.indexOf(">", i) + 1;
        return node;
      } else node.children.push(element());
    }
  };
  const root = element();
  skip();
  if (i !== xml.length) throw new Error(`content after the root element at ${i}`);
  return root;
}

/** Every descendant element with the given name, in document order. */
export function findAll(node: XmlElement, name: string): XmlElement[] {
  return node.children.flatMap((c) => [...(c.name === name ? [c] : []), ...findAll(c, name)]);
}
