"""Frames whose row index the executed cells show to have no level names: read from a CSV file and
never re-indexed since.

The recorded facts list a frame's columns but not its row index, and pandas looks a key up in both
(`df.sort_values('a')` sorts by an index level named 'a'; `df.groupby('a')` refuses a label that
names a column and a level). `pd.read_csv(path)` without `index_col` gives a row index whose levels
have no name, whatever the file holds (an unnamed first column, or rows one field longer than the
header, become unnamed levels). After that, only a few things name a level: a store of `.index`,
`.name` or `.names` on some object, a method that names levels or makes a column the index
(`set_index`, `rename_axis`, `set_names`, `rename` given a name), or the same reached out of the
parser's sight. So the fact holds for a name bound once, at the top of a cell, by such a call, when
no executed cell anywhere spells any of those.
"""

from __future__ import annotations

import ast
import builtins
import re
from typing import Callable, Dict, FrozenSet, Iterable, Optional, Tuple

from .bound_names import BindingKinds

_READERS = {"read_csv", "read_table"}
# Arguments of read_csv that change what is read, never which column is the index: a file's rows
# one field longer than its header still make unnamed levels under any of them.
_PLAIN_ARGUMENTS = {"sep", "delimiter", "header", "names", "usecols", "dtype", "engine", "skiprows", "skipfooter",
                    "nrows", "na_values", "keep_default_na", "na_filter", "skip_blank_lines", "parse_dates",
                    "date_format", "thousands", "decimal", "lineterminator", "quotechar", "quoting", "escapechar",
                    "comment", "encoding", "encoding_errors", "on_bad_lines", "low_memory", "compression",
                    "skipinitialspace", "true_values", "false_values", "memory_map", "float_precision",
                    "dtype_backend", "storage_options"}
# Spelled anywhere (a name, an attribute, an imported name, a string given to `getattr`), each may
# name a level of some frame's row index in place, or swap a frame's contents for another's (the
# private setters `rename_axis` and `set_axis` go through, the block manager, re-initialising).
_NAMING = {"set_index", "rename_axis", "set_names", "set_axis", "methodcaller", "rename", "fset", "__init__"}
_PRIVATE_NAMING = ("_set", "_update", "_mgr", "_data", "_name", "_index", "_rename")
# Stored or deleted as an attribute of anything: `df.index = ...`, `idx.name = ...`, `idx.names = ...`.
_NAMING_STORES = {"index", "name", "names"}
# The same inside text: a string may be code pandas runs (`df.query("@df.rename_axis('a', inplace=True)")`
# calls the method; so does `index.set_names(...)` in a query, `index` being the frame's own).
_NAMING_TEXT = re.compile(r"\b(set_index|rename_axis|set_names|set_axis|rename|methodcaller|fset|setattr|"
                          r"__init__|__setattr__)\b|\b_(set|update|mgr|data|name|index|rename)")
# pandas methods that run text as code (`query`, `eval`) or call a method named by a string
# (`df.agg('rename_axis', index='a')`): given text computed at run time, which the scan above
# cannot read, they may do any of it. Only called at once, on arguments written out, are they read.
_RUNS_TEXT = {"query", "eval", "agg", "aggregate", "apply", "transform", "sympify", "parse_expr"}
# `df.rename(columns=...)` renames column labels only.
_RENAME_COLUMNS_ONLY = {"columns", "inplace", "errors", "copy"}


def unnamed_index_frames(trees: Iterable[ast.AST], aliases: Dict[str, Tuple[str, Optional[str]]],
                         kinds: BindingKinds) -> FrozenSet[str]:
    """The names bound once, at the top of a cell, to `pd.read_csv(...)` without an index column,
    when no executed cell may name a row index level since (the caller also requires no dynamic
    binding, no library patch and no attribute written out of sight). `kinds`: how those cells
    bind names."""
    trees = list(trees)
    candidates = set()
    rebound: Dict[str, int] = {}
    for tree in trees:
        if _may_name_levels(tree, kinds):
            return frozenset()
        for stmt in getattr(tree, "body", []):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and _reads_csv(stmt.value, aliases):
                candidates.add(stmt.targets[0].id)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and _keeps_the_index(node.value, node.targets[0].id):
                rebound[node.targets[0].id] = rebound.get(node.targets[0].id, 0) + 1
    # (bound once by the read, and otherwise only to what pandas made of the frame itself,
    # keeping its row index's names: `df = df.dropna()`, `df = df[df.a > 0].reset_index(drop=True)`)
    return frozenset(name for name in candidates if kinds.count.get(name) == 1 + rebound.get(name, 0))


# DataFrame methods whose result has the frame's row index, its level names unchanged, or a new
# unnamed range (`reset_index`, `sample(ignore_index=True)`).
_KEEPING = {"drop", "dropna", "fillna", "replace", "astype", "copy", "sort_values", "drop_duplicates", "head",
            "tail", "sample", "reset_index", "select_dtypes", "ffill", "bfill", "interpolate", "convert_dtypes",
            "infer_objects", "round"}


def _keeps_the_index(value: ast.AST, name: str) -> bool:
    """`name.<keeping method>(...)`, `name[...]`, `name.loc[...]`, chained, ending at `name`."""
    root, steps = _chain_root(value, _keeping_step)
    return root is not None and root.id == name and steps > 0


def _keeping_step(node: ast.AST) -> Optional[ast.AST]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            (node.func.attr in _KEEPING or node.func.attr == "rename" and _renames_columns(node)):
        return node.func.value
    if isinstance(node, ast.Subscript):
        inner = node.value
        return inner.value if isinstance(inner, ast.Attribute) and inner.attr in ("loc", "iloc") else inner
    return None


def _chain_root(node: ast.AST, step: Callable[[ast.AST], Optional[ast.AST]]) -> Tuple[Optional[ast.Name], int]:
    """The name a chain of calls, attributes and subscripts starts from, and how many links it has,
    following only the links `step` takes (None: a link it refuses)."""
    steps = 0
    while not isinstance(node, ast.Name):
        inner = step(node)
        if inner is None:
            return None, steps
        node, steps = inner, steps + 1
    return node, steps


def _reads_csv(value: ast.AST, aliases: Dict[str, Tuple[str, Optional[str]]]) -> bool:
    if not isinstance(value, ast.Call) or len(value.args) != 1 or isinstance(value.args[0], ast.Starred):
        return False
    return pandas_function(value.func, aliases) in _READERS and \
        all(kw.arg in _PLAIN_ARGUMENTS for kw in value.keywords)


def pandas_function(func: ast.AST, aliases: Dict[str, Tuple[str, Optional[str]]]) -> Optional[str]:
    """The name of the pandas function a call's `func` spells (`pd.read_csv`, or `read_csv` imported
    from pandas), by the cells' import aliases; None for anything else."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
            aliases.get(func.value.id) == ("pandas", None):
        return func.attr
    if isinstance(func, ast.Name):
        target = aliases.get(func.id)
        if target is not None and target[0] == "pandas" and target[1] is not None:
            return target[1]
    return None


def _may_name_levels(tree: ast.AST, kinds: BindingKinds) -> bool:
    calls = {id(node.func): node for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) and \
                node.attr in _NAMING_STORES:
            return True
        if isinstance(node, ast.Attribute) and node.attr == "__init__" and _bare_super(node.value):
            continue  # a class's own initialiser handing on to its base: its instances only
        if isinstance(node, ast.Attribute) and node.attr == "rename" and _renames_columns(calls.get(id(node))):
            continue
        if isinstance(node, ast.Constant) and type(node.value) is str:
            if _NAMING_TEXT.search(node.value):
                return True
            continue
        spelled = _spelled(node)
        if spelled in _RUNS_TEXT and not (isinstance(node, (ast.Attribute, ast.Name)) and
                                          _called_on_visible(calls.get(id(node)), kinds)):
            return True  # (taken as a value, imported under another name, or given computed text)
        if spelled is not None and (spelled in _NAMING or spelled.startswith(_PRIVATE_NAMING)):
            return True
    return False


def _called_on_visible(call: Optional[ast.Call], kinds: BindingKinds) -> bool:
    return call is not None and all(_visible(arg, kinds) for arg in call.args + [kw.value for kw in call.keywords])


def _visible(arg: ast.AST, kinds: BindingKinds) -> bool:
    """An argument whose text, if it is text, is written out: a constant, a function written
    inline, a name that only ever holds a function, class or module of the cells (or a builtin no
    cell rebinds), an attribute of an imported module or of an unrebound builtin. A string held
    in a variable or an attribute of the notebook's is not (see `_RUNS_TEXT`)."""
    if isinstance(arg, (ast.List, ast.Tuple, ast.Set)):
        return all(_visible(e, kinds) for e in arg.elts)
    if isinstance(arg, ast.Dict):
        return all(_visible(e, kinds) for e in arg.keys + arg.values if e is not None)
    if isinstance(arg, (ast.Constant, ast.Lambda)):
        return True
    builtin = isinstance(arg, ast.Name) and arg.id in builtins.__dict__ and arg.id not in kinds.bound
    if isinstance(arg, ast.Name):
        return arg.id in kinds.code or builtin
    root = arg
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(arg, ast.Attribute) and isinstance(root, ast.Name) and \
        (root.id in kinds.modules or (root.id in builtins.__dict__ and root.id not in kinds.bound))


def _spelled(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.alias):
        return node.name.split(".")[-1]
    return None


def _bare_super(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super" and \
        not node.args and not node.keywords


def _renames_columns(call: Optional[ast.Call]) -> bool:
    """`x.rename(columns=...)`: keywords that rename column labels only."""
    return call is not None and not call.args and all(kw.arg in _RENAME_COLUMNS_ONLY for kw in call.keywords)


# Arguments of read_csv under which every value it parses is text, a number, a bool or missing: no
# dtype, converter or date parser of anyone's, and no engine or backend that keeps values in
# another library's arrays.
_TEXT_AND_NUMBER_ARGUMENTS = {"sep", "delimiter", "header", "names", "usecols", "skiprows", "skipfooter", "nrows",
                              "na_values", "keep_default_na", "na_filter", "skip_blank_lines", "thousands",
                              "decimal", "lineterminator", "quotechar", "quoting", "escapechar", "comment",
                              "encoding", "encoding_errors", "on_bad_lines", "low_memory", "skipinitialspace",
                              "index_col"}


def untouched_csv_frames(trees: Iterable[ast.AST], aliases: Dict[str, Tuple[str, Optional[str]]],
                         kinds: BindingKinds) -> FrozenSet[str]:
    """The names bound once, at the top of a cell, to `pd.read_csv(path)` (with arguments that
    leave every value parsed text or a number), that no executed cell spells anywhere else, in
    code or in text, but to look at the frame (`_looks`): the frame holds what the parser made,
    nothing the notebook put there (the caller also requires no dynamic binding, no library patch
    and no attribute written out of sight)."""
    trees = list(trees)
    bindings: Dict[str, ast.AST] = {}
    for tree in trees:
        for stmt in getattr(tree, "body", []):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and _reads_csv(stmt.value, aliases) \
                    and all(kw.arg in _TEXT_AND_NUMBER_ARGUMENTS for kw in stmt.value.keywords):
                bindings[stmt.targets[0].id] = stmt.targets[0]
    names = {name for name, target in bindings.items() if kinds.count.get(name) == 1}
    if not names:
        return frozenset()
    looks = _looks(trees, kinds)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in names and bindings[node.id] is not node \
                    and id(node) not in looks:
                names.discard(node.id)
            elif isinstance(node, ast.Constant) and type(node.value) is str:
                names = {name for name in names if name not in node.value}
            elif isinstance(node, (ast.Attribute, ast.alias, ast.arg, ast.keyword)) or hasattr(node, "name"):
                spelled = getattr(node, "attr", None) or getattr(node, "arg", None) or getattr(node, "name", None)
                if type(spelled) is str:
                    names.discard(spelled)
    return frozenset(names)


# What a notebook does to look at a frame it has just read, none of which changes a value in it:
# methods that compute a new object, or print; attributes that are read (a column by its name too).
_LOOKING_METHODS = {"head", "tail", "info", "describe", "nunique", "count", "isnull", "isna", "notnull", "notna",
                    "sum", "value_counts", "unique", "mean", "min", "max", "median", "std"}
_LOOKING_WRAPPERS = {"print", "len"}
# The shell's names for what a cell showed (`_`, `__`, `_7`, `Out[7]`, `_oh`): through them a later
# cell reaches the frame itself (a bare `df` shows it), or a slice of it, without spelling its name.
_SHOWN = re.compile(r"^(_{1,3}|_\d+|Out|_oh)$")


def _looks(trees, kinds: BindingKinds) -> FrozenSet[int]:
    """The ids of the name nodes that root a statement that only looks at a frame: `df`,
    `df.head()`, `df.labels.value_counts()`, `print(df.shape)` alone on their line, with constant
    arguments. Empty when a cell may reach what the shell kept of a shown value."""
    trees = list(trees)
    if any(isinstance(node, ast.Name) and _SHOWN.match(node.id) for tree in trees for node in ast.walk(tree)):
        return frozenset()
    found = set()
    for tree in trees:
        for stmt in getattr(tree, "body", []):
            if isinstance(stmt, ast.Expr):
                root = _looked_at(stmt.value, kinds)
                if root is not None:
                    found.add(id(root))
    return frozenset(found)


def _looked_at(node: ast.AST, kinds: BindingKinds) -> Optional[ast.Name]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _LOOKING_WRAPPERS \
            and node.func.id not in kinds.bound and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    root, _ = _chain_root(node, _looking_step)
    return root if root is not None and isinstance(root.ctx, ast.Load) else None


def _looking_step(node: ast.AST) -> Optional[ast.AST]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in _LOOKING_METHODS and _constants(node.args + [k.value for k in node.keywords]) \
            and all(k.arg is not None for k in node.keywords):
        return node.func.value
    if isinstance(node, ast.Attribute) and not node.attr.startswith("_"):
        return node.value
    if isinstance(node, ast.Subscript) and _constants([node.slice]):
        return node.value
    return None


def _constants(nodes) -> bool:
    for node in nodes:
        if isinstance(node, (ast.List, ast.Tuple)):
            if not _constants(node.elts):
                return False
        elif isinstance(node, ast.Slice):
            if not _constants([p for p in (node.lower, node.upper, node.step) if p is not None]):
                return False
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            if not _constants([node.operand]):
                return False
        elif not (isinstance(node, ast.Constant) and type(node.value) in (str, int, float, bool, type(None))):
            return False
    return True
