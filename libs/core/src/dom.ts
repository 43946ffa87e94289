/**
 * The one way this extension builds an element: a tag, its classes and, if any, its text. Only
 * textContent is ever set, so cell code, data and model text stay text wherever they are shown.
 */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
