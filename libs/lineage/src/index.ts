export { definedIn, origin, rootOf, what } from './origin';
export type { NotebookCell, OriginEntry, OriginInput, OriginKind } from './origin';
export { bindingLines, codeLines, definesLine } from './defines';
