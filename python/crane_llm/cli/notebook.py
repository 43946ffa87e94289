"""Reading a notebook file and choosing the target cell and the cells that run before it.

Cells are numbered as a user sees them: the 1-based position among the notebook's code cells
(markdown and raw cells are not counted, since they never run).
"""

from __future__ import annotations

import json
from pathlib import Path
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence


class CliError(Exception):
    """A problem the user can fix, said in one sentence; the command exits with `code`."""

    def __init__(self, message: str, code: int = 2, kind: str = "usage"):
        super().__init__(message)
        self.message = message
        self.code = code
        self.kind = kind  # usage | settings | kernel | earlier-cell | kernel-side | provider:<kind>


@dataclass(eq=False)
class CodeCell:
    """One code cell: its 1-based number among code cells, its 0-based index among all cells, its id
    (may be None), its source."""

    number: int
    cell_id: Optional[str]
    source: str
    node: Any  # the nbformat NotebookNode, for nbclient
    index: int = 0


MAX_NOTEBOOK_BYTES = 512 * 2**20  # (outputs make notebooks large; past this it is not one a person reads)


def load_notebook(path: str) -> Any:
    """The notebook as an nbformat v4 node; CliError for a missing or unreadable file."""
    import nbformat

    p = Path(path)
    if not p.exists():
        raise CliError("No such file: %s" % path)
    if p.is_dir():
        raise CliError("%s is a directory, not a notebook file (.ipynb)." % path)
    if not p.is_file():  # (a FIFO or a device, /dev/zero, would be read forever)
        raise CliError("%s is not a regular file, so crane-llm does not read it as a notebook." % path)
    if p.stat().st_size > MAX_NOTEBOOK_BYTES:
        raise CliError("%s is larger than %d MB, more than crane-llm reads as a notebook." % (path, MAX_NOTEBOOK_BYTES // 2**20))
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError("Could not read %s: %s" % (path, exc))
    try:
        raw = json.loads(text)
    except ValueError:
        raise CliError("%s is not a Jupyter notebook: it is not JSON (an .ipynb file is)." % path)
    version = raw.get("nbformat") if isinstance(raw, dict) else None
    if type(version) is float and version.is_integer():  # (`"nbformat": 3.0` is written too)
        version = int(version)
    if isinstance(version, int) and not isinstance(version, bool) and version < 4:
        raise CliError(
            "%s is an nbformat %d notebook (from IPython 3 or older), which crane-llm does not read; "
            "convert it with `jupyter nbconvert --to notebook %s` (it writes %s.nbconvert.ipynb next to it) "
            "and check that copy." % (path, version, path, p.stem))
    if not isinstance(raw, dict) or not isinstance(raw.get("cells"), list) or "nbformat" not in raw:
        raise CliError("%s is not a Jupyter notebook: it has no \"cells\" list and no \"nbformat\" version." % path)
    try:
        return nbformat.reads(text, as_version=4)
    except Exception as exc:
        raise CliError("%s is not a valid Jupyter notebook: %s" % (path, exc))


def code_cells(nb: Any) -> List[CodeCell]:
    cells = []
    for index, node in enumerate(nb.cells):
        if node.get("cell_type") == "code":
            cells.append(CodeCell(len(cells) + 1, node.get("id"), node.get("source", ""), node, index))
    return cells


def find_target(cells: Sequence[CodeCell], number: Optional[int], cell_id: Optional[str]) -> CodeCell:
    if not cells:
        raise CliError("The notebook has no code cells.")
    if cell_id is not None:
        for cell in cells:
            if cell.cell_id == cell_id:
                return cell
        raise CliError("No code cell has the id %r." % cell_id)
    if number is None:
        raise CliError("Say which cell to check: --cell N or --cell-id ID.")
    if number < 1 or number > len(cells):
        raise CliError(
            "Cell %d is out of range: the notebook has %d code cell%s (numbered 1 to %d)."
            % (number, len(cells), "" if len(cells) == 1 else "s", len(cells))
        )
    return cells[number - 1]


def parse_order(text: str) -> List[int]:
    try:
        numbers = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise CliError("--order takes cell numbers separated by commas, such as 3,1,2; got %r." % text)
    if not numbers:
        raise CliError("--order is empty.")
    return numbers


def cells_to_run(cells: Sequence[CodeCell], target: CodeCell, order: Optional[List[int]]) -> List[CodeCell]:
    """Notebook order up to the target by default; with --order, exactly those cells in that order."""
    if order is None:
        return [c for c in cells if c.number < target.number]
    chosen = []
    for n in order:
        if n < 1 or n > len(cells):
            raise CliError("--order names cell %d, but the notebook has %d code cells." % (n, len(cells)))
        if n == target.number:
            raise CliError("--order names cell %d, which is the cell being checked; it is never run." % n)
        chosen.append(cells[n - 1])
    return chosen
