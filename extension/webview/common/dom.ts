// Builds DOM and SVG elements. Text goes in through textContent only, never as markup, so a
// model's strings (op names, attributes, file paths) can never become HTML; bidi controls are
// stripped from it (and from the attributes people read), so they cannot reorder it either.
import { displayText } from './bidi';

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/** Attributes shown to the user (tooltips, labels); ids, classes and data-* stay as they are. */
const READ_ATTRS = new Set(['title', 'aria-label', 'placeholder', 'alt']);

function apply(el: Element, attrs: Attrs, children: Child[]): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    const value = v === true ? '' : String(v);
    el.setAttribute(k, READ_ATTRS.has(k) ? displayText(value) : value);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' ? document.createTextNode(displayText(c)) : c);
  }
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs, children);
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}
