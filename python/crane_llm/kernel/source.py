"""A notebook cell as Python sees it: IPython syntax (`%magic`, `!cmd`, `x?`) turned into Python first."""

import ast
from functools import lru_cache

from ..loaded_modules import ipython_module


@lru_cache(maxsize=64)
def python_source(cell: str) -> str:
    """The cell after IPython's own input transformer, so `%time x` and `!ls` read as the kernel runs them."""
    try:
        it2 = ipython_module("IPython.core.inputtransformer2")
    except ImportError:  # plain Python: the cell is already Python
        return cell
    return it2.TransformerManager().transform_cell(cell)


def parse_cell(cell: str) -> ast.Module:
    """Parse a cell as the kernel would; raises SyntaxError with the cell's own line numbers."""
    return ast.parse(python_source(cell), filename="<cell>", mode="exec")
