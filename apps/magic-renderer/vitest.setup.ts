// jsdom has no DragEvent; @lumino/dragdrop (pulled in by @lumino/widgets) subclasses it on import.
if (typeof (globalThis as { DragEvent?: unknown }).DragEvent === 'undefined') {
  (globalThis as { DragEvent?: unknown }).DragEvent = class DragEvent extends MouseEvent {};
}
