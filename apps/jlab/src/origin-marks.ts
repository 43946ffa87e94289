import type { OriginItem } from '@crane-llm/core';

/**
 * The dashed violet outline and the short note on each origin cell. Works on plain cell nodes so
 * it can be tested without a notebook; the host passes its cells as (id, node) pairs.
 */

export const ORIGIN_CLASS = 'crane-origin-cell';
const NOTE_CLASS = 'crane-origin-note';

export function originNote(items: readonly OriginItem[]): string {
  const parts = items.map(i => i.note);
  const flags: string[] = [];
  if (items.some(i => i.editedSinceRun)) flags.push('edited since it ran: its code no longer matches what ran');
  if (items.some(i => i.codeOnly)) flags.push('ran before recording began');
  return `Origin of the crash: ${parts.join('; ')}${flags.length ? ` (${flags.join('; ')})` : ''}`;
}

export function applyOriginMarks(cells: Iterable<{ id: string; node: HTMLElement }>, marks: Map<string, OriginItem[]>): void {
  for (const { id, node } of cells) {
    const items = marks.get(id);
    const old = node.querySelector(`:scope > .${NOTE_CLASS}`);
    if (!items || items.length === 0) {
      node.classList.remove(ORIGIN_CLASS);
      old?.remove();
      continue;
    }
    node.classList.add(ORIGIN_CLASS);
    const note = (old as HTMLElement | null) ?? document.createElement('div');
    note.className = NOTE_CLASS;
    note.textContent = originNote(items);
    note.classList.toggle('crane-origin-note-edited', items.some(i => i.editedSinceRun));
    if (!old) node.append(note);
  }
}
