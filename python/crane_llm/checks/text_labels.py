"""Frames whose column labels the executed cells show to be all text, and all different.

The recorded facts may give a frame's shape and dtypes without its columns, and scikit-learn tells
a frame's column names apart by their type: all text, they are feature names; none text, there are
none; a mixture is its TypeError. Repeated names are narwhals' DuplicateError (scikit-learn 1.9
reads frames through it). `pd.read_csv(path)` with the file's own header row labels every column
with text, made distinct (`a`, `a.1`). Row selections, selections of listed distinct labels,
pandas' own methods that return a frame of some of the same columns, `pd.concat` along the rows
(the union of the columns) and `pd.merge` (which refuses suffixes that would repeat a name) keep
that. `pd.get_dummies` does not: `<label>_<value>` of one column may be another's name. So a name
every one of whose bindings, anywhere in the executed cells, is one of those, made from names of the
same kind, holds a frame labelled with distinct text only, whichever of its bindings ran last,
unless some cell may put another label into a frame in place: a store under a key that is not
written-out text (`df[0] = ...`, `df.loc[:, k] = ...`, `df['a', 'b'] = ...`), a store of
`.columns`, or a method that renames or inserts (spelled anywhere, in code or in text). The caller
also requires no dynamic binding, no library patch and no attribute written out of sight.
"""

from __future__ import annotations

import ast
import re
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

from .bound_names import BindingKinds

_READERS = {"read_csv", "read_table"}
# Arguments of read_csv that leave the header row as the columns' labels (`names=`, `header=`,
# `prefix=` and a chunked reader would not).
_HEADER_KEPT = {"sep", "delimiter", "usecols", "dtype", "engine", "skiprows", "skipfooter", "nrows", "na_values",
                "keep_default_na", "na_filter", "skip_blank_lines", "parse_dates", "date_format", "thousands",
                "decimal", "lineterminator", "quotechar", "quoting", "escapechar", "comment", "encoding",
                "encoding_errors", "on_bad_lines", "low_memory", "compression", "skipinitialspace", "true_values",
                "false_values", "memory_map", "float_precision", "dtype_backend", "storage_options", "index_col"}
# Frame methods whose result's columns are some of the frame's own, labels unchanged.
_KEEPING = {"drop", "dropna", "fillna", "copy", "sort_values", "sort_index", "head", "tail", "sample",
            "drop_duplicates", "astype", "replace", "select_dtypes", "ffill", "bfill", "interpolate", "round",
            "abs", "clip", "set_index", "isna", "isnull", "notna", "notnull", "infer_objects", "convert_dtypes"}
_MERGE_ARGUMENTS = {"on", "left_on", "right_on", "how", "left_index", "right_index", "sort", "validate",
                    "indicator"}
_CONCAT_ARGUMENTS = {"axis", "join", "sort", "ignore_index"}  # (along the rows only: `axis` 0)
# Spelled anywhere (a name, an attribute, a string), each may put a label of any type into a frame
# in place, or run text as code that does.
_RELABELLING = {"rename", "set_axis", "insert", "add_prefix", "add_suffix", "reset_index", "eval", "query",
                "setattr", "__setattr__", "__setitem__", "__dict__", "_mgr", "_data", "methodcaller", "_info_axis",
                "_get_axis", "_set_axis", "_values"}
# Where a frame's column Index (`df.columns`, `df.keys()`, `df.axes`) may be used without its labels
# escaping to code that could change them in place (pandas 2 hands out its array writeable:
# `df.columns.values[0] = 5` relabels the frame).
_INDEX_READS = {"tolist", "to_list", "size", "shape", "dtype", "nunique", "name", "names", "nlevels", "is_unique",
                "str", "difference", "intersection", "union", "isin", "get_loc", "drop", "copy", "sort_values",
                "duplicated"}
_INDEX_TAKERS = {"list", "len", "print", "sorted", "set", "tuple", "display", "enumerate", "str", "repr"}
_RELABELLING_TEXT = re.compile(r"\b(" + "|".join(sorted(_RELABELLING)) + r")\b")


def text_label_frames(trees: Iterable[ast.AST], aliases: Dict[str, Tuple[str, Optional[str]]],
                      kinds: BindingKinds) -> FrozenSet[str]:
    """The names whose frame, if they hold one, has column labels that are all text."""
    trees = list(trees)
    if any(_may_relabel(tree) for tree in trees):
        return frozenset()
    sources: Dict[str, List[Set[str]]] = {}  # name -> for each of its bindings, the names it is made from
    for tree in trees:
        for stmt in getattr(tree, "body", []):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                made_from = _made_from(stmt.value, aliases)
                if made_from is not None:
                    sources.setdefault(stmt.targets[0].id, []).append(made_from)
    names = {name for name, made in sources.items() if kinds.count.get(name) == len(made)}
    changed = True
    while changed:  # (a name counts only while every name it is ever made from counts)
        changed = False
        for name in list(names):
            if any(not made <= names for made in sources[name]):
                names.discard(name)
                changed = True
    return frozenset(names)


def _made_from(value: ast.AST, aliases: Dict[str, Tuple[str, Optional[str]]]) -> Optional[Set[str]]:
    """The names a frame labelled with distinct text only is made from by `value` (empty for a CSV
    read), or None when `value` is no such expression."""
    if isinstance(value, ast.Subscript) and isinstance(value.ctx, ast.Load):
        return _selection(value)
    if not isinstance(value, ast.Call) or any(kw.arg is None for kw in value.keywords) or \
            any(isinstance(a, ast.Starred) for a in value.args):
        return None
    func, keywords = value.func, {kw.arg: kw.value for kw in value.keywords}
    pandas_function = _pandas_function(func, aliases)
    if pandas_function in _READERS:
        return set() if len(value.args) == 1 and set(keywords) <= _HEADER_KEPT else None
    if pandas_function == "merge":
        return _names(value.args) if len(value.args) == 2 and set(keywords) <= _MERGE_ARGUMENTS else None
    if pandas_function == "concat":
        axis = keywords.get("axis")
        if len(value.args) != 1 or not isinstance(value.args[0], (ast.List, ast.Tuple)) or \
                not set(keywords) <= _CONCAT_ARGUMENTS or \
                (axis is not None and not (isinstance(axis, ast.Constant) and axis.value in (0, "index"))):
            return None
        return _names(value.args[0].elts)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id not in aliases:
        if func.attr in _KEEPING:
            return {func.value.id}
        if func.attr == "merge" and len(value.args) == 1 and set(keywords) <= _MERGE_ARGUMENTS:
            made = _names(value.args)
            return made | {func.value.id} if made is not None else None
    return None


def _selection(node: ast.Subscript) -> Optional[Set[str]]:
    """`df[[...]]` of distinct written-out texts, `df[mask]`, `df.loc[mask]`, `df.loc[rows, [...]]`:
    a frame of some of `df`'s columns (a single label would be a Series)."""
    base, key = node.value, node.slice
    if isinstance(base, ast.Attribute) and base.attr == "loc" and isinstance(base.value, ast.Name):
        if isinstance(key, ast.Tuple):
            return {base.value.id} if len(key.elts) == 2 and _rows(key.elts[0]) and \
                (_texts(key.elts[1]) or isinstance(key.elts[1], ast.Slice)) else None
        return {base.value.id} if _rows(key) else None
    if isinstance(base, ast.Name) and (_texts(key) or isinstance(key, ast.Compare)):
        return {base.id}
    return None


def _rows(key: ast.AST) -> bool:
    return isinstance(key, (ast.Compare, ast.Slice)) or \
        (isinstance(key, ast.BoolOp) and all(isinstance(v, ast.Compare) for v in key.values))


def _texts(key: ast.AST) -> bool:
    """A list of distinct written-out texts."""
    return isinstance(key, ast.List) and all(isinstance(e, ast.Constant) and type(e.value) is str for e in key.elts) \
        and len({e.value for e in key.elts}) == len(key.elts)


def _pandas_function(func: ast.AST, aliases: Dict[str, Tuple[str, Optional[str]]]) -> Optional[str]:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
            aliases.get(func.value.id) == ("pandas", None):
        return func.attr
    if isinstance(func, ast.Name):
        target = aliases.get(func.id)
        if target is not None and target[0] == "pandas" and target[1] is not None:
            return target[1]
    return None


def _names(nodes: Iterable[ast.AST]) -> Optional[Set[str]]:
    nodes = list(nodes)
    return {n.id for n in nodes} if all(isinstance(n, ast.Name) for n in nodes) else None


def _may_relabel(tree: ast.AST) -> bool:
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if _column_index(node) and not _index_read(node, parents.get(id(node))):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "columns" and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and not _text_key_store(node):
            return True
        spelled = getattr(node, "attr", None) if isinstance(node, ast.Attribute) else \
            node.id if isinstance(node, ast.Name) else getattr(node, "name", None) if isinstance(node, ast.alias) \
            else node.arg if isinstance(node, ast.keyword) else None
        if spelled in _RELABELLING:
            return True
        if isinstance(node, ast.Constant) and type(node.value) is str and _RELABELLING_TEXT.search(node.value):
            return True
    return False


def _column_index(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
        return node.attr in ("columns", "axes")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys"


def _index_read(node: ast.AST, parent: Optional[ast.AST]) -> bool:
    """`node`, a column Index, is only shown, iterated, measured, compared or copied from here."""
    if isinstance(parent, (ast.Expr, ast.Compare)):
        return True
    if isinstance(parent, (ast.For, ast.comprehension)):
        return parent.iter is node
    if isinstance(parent, ast.Attribute):
        return parent.attr in _INDEX_READS
    if isinstance(parent, ast.Call):
        return node in parent.args and isinstance(parent.func, ast.Name) and parent.func.id in _INDEX_TAKERS
    return False


def _text_key_store(node: ast.Subscript) -> bool:
    """`df['a'] = ...`, `df[['a', 'b']] = ...`, `df.loc[mask, 'a'] = ...`, `df.iloc[...] = ...`: a
    store that adds no label but a written-out text (positions add none; a tuple is one label)."""
    base = node.value
    if isinstance(base, ast.Attribute) and base.attr in ("iloc", "iat"):
        return True
    key = node.slice
    if isinstance(base, ast.Attribute) and base.attr in ("loc", "at"):
        if not isinstance(key, ast.Tuple):
            return _rows(key) or (isinstance(key, ast.Constant) and type(key.value) in (int, str))
        if len(key.elts) != 2:
            return False
        key = key.elts[1]
        if isinstance(key, ast.Slice):
            return True
    elif not isinstance(base, ast.Name):
        return False
    if isinstance(key, ast.Constant):
        return type(key.value) is str
    return isinstance(key, ast.List) and all(isinstance(p, ast.Constant) and type(p.value) is str for p in key.elts)


__all__ = ["text_label_frames"]
