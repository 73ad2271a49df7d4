// A DOM element with the XPath-like path it was reached by (/rsm:CrossIndustryInvoice/...[2]),
// so every value a reader takes remembers where it was, and a rule can say where it failed.
// Children are matched by namespace URI and local name; the path uses the usual prefixes.

export const NS: Record<string, string> = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  ubl: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** A value read from the source and where it was. */
export interface Located<T = string> {
  value: T;
  path: string;
}

export class Node {
  constructor(
    readonly element: Element,
    readonly path: string,
  ) {}

  static root(document: Document): Node {
    const element = document.documentElement;
    return new Node(element, `/${prefixed(element)}`);
  }

  /** The children named `prefix:Local` (e.g. 'ram:ID'), each with its indexed path. */
  all(name: string): Node[] {
    const [prefix = '', local = ''] = name.split(':');
    const uri = NS[prefix];
    const found: Element[] = [];
    for (let child = this.element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 1 && (child as Element).localName === local && (child as Element).namespaceURI === uri) found.push(child as Element);
    }
    return found.map((element, index) => new Node(element, `${this.path}/${name}${found.length > 1 ? `[${index + 1}]` : ''}`));
  }

  /** The first child named so, or undefined. */
  one(name: string): Node | undefined {
    return this.all(name)[0];
  }

  /** Follows a path of child names ('ram:A/ram:B'), first match at each step. */
  at(path: string): Node | undefined {
    let node: Node | undefined = this;
    for (const step of path.split('/')) node = node?.one(step);
    return node;
  }

  /** Every node at the end of a path of child names, all matches at each step. */
  each(path: string): Node[] {
    let nodes: Node[] = [this];
    for (const step of path.split('/')) nodes = nodes.flatMap((node) => node.all(step));
    return nodes;
  }

  private below?: Node[];

  /** Every element named so ('*' for all) below this one, at any depth, in document order. The walk is done once per node. */
  descendants(name: string): Node[] {
    if (!this.below) {
      const found: Node[] = [];
      const walk = (node: Node) => {
        const elements: Element[] = [];
        for (let child = node.element.firstChild; child; child = child.nextSibling) if (child.nodeType === 1) elements.push(child as Element);
        const counts = new Map<string, number>();
        for (const element of elements) counts.set(prefixed(element), (counts.get(prefixed(element)) ?? 0) + 1);
        const seen = new Map<string, number>();
        for (const element of elements) {
          const key = prefixed(element);
          const index = (seen.get(key) ?? 0) + 1;
          seen.set(key, index);
          const child = new Node(element, `${node.path}/${key}${(counts.get(key) ?? 0) > 1 ? `[${index}]` : ''}`);
          found.push(child);
          walk(child);
        }
      };
      walk(this);
      this.below = found;
    }
    return name === '*' ? this.below : this.below.filter((node) => prefixed(node.element) === name);
  }

  get text(): string {
    return this.element.textContent ?? '';
  }

  attr(name: string): string | undefined {
    return this.element.hasAttribute(name) ? this.element.getAttribute(name)! : undefined;
  }

  /** The text at a child path, located; undefined when the element is absent. */
  value(path: string): Located | undefined {
    const node = this.at(path);
    return node ? { value: node.text.trim(), path: node.path } : undefined;
  }

  /** The text of every element at a child path, located. */
  values(path: string): Located[] {
    return this.each(path).map((node) => ({ value: node.text.trim(), path: node.path }));
  }
}

const PREFIX_OF = new Map(Object.entries(NS).map(([prefix, uri]) => [uri, prefix]));

function prefixed(element: Element): string {
  const prefix = element.namespaceURI ? PREFIX_OF.get(element.namespaceURI) : undefined;
  return prefix ? `${prefix}:${element.localName}` : element.localName;
}
