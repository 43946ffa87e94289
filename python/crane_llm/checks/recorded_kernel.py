"""What the executed cells of a replay say about the kernel they left behind, read statically.

The replay adapter answers from recorded facts, which list only the variables a recorder found
relevant. The executed cells themselves add what the facts cannot:

- `names`: every name some executed cell may bind, in any scope, whatever the control flow;
- `dynamic`: why names may exist that no cell shows binding (a star import, `exec`, a magic,
  writes through `globals()` / `builtins` / `user_ns` / `sys.modules`, a module of the user's own),
  or None. Only when it is None is a name outside `names` certainly undefined;
- `modules`: the modules a top-level import statement loaded (with their parents), so importing
  them again cannot fail;
- `aliases`: names whose only binding anywhere is one top-level import (`import numpy as np`,
  `from sklearn.linear_model import LogisticRegression`), so the name is that module or object;
- `written`: every attribute name some executed cell may set on any object (stored, deleted, or a
  string literal), or None when a cell may set one out of sight (`__setattr__`, `__dict__`,
  `__class__` (an object may then pass for a type it is not), `gc`, ...);
- `literals`: names whose one binding anywhere is a top-level `name = [<constants>]` (a list or
  tuple of str, int, float or bool) and that no cell uses but as the items of a loop or a
  comprehension or the argument of a builtin that only reads it (`len`, `print`, `sorted`, ...):
  when the facts record that name as a list or tuple of that length, the assignment ran and
  nothing changed the list since, so its value is the literal (the facts give only its length);
- `unnamed_index`: frames read with `pd.read_csv` whose row index no cell may have named since
  (fresh_frames.py);
- `dropped_row`: when the last cell the kernel ran was `df.drop([label], inplace=True)` alone
  (rows, one plain label), that name and label: whether that drop removed the rows or raised
  KeyError, the label is not in the row index now (re-running a cell that drops rows is a
  classic notebook crash). Alone, because a statement before it in its cell may have raised,
  and then the drop never ran.

Nothing is executed; the cells are parsed as the kernel would (IPython syntax included).
"""

from __future__ import annotations

import ast
import re
import os
import sys
import sysconfig
import unicodedata
from functools import lru_cache
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Set, Tuple

from ..kernel.source import python_source
from .bound_names import BindingKinds, bound_in, every_identifier
from .recorded_tensors import tensors_as_recorded
from .recorded_attributes import attributes_as_shipped
from .fresh_frames import unnamed_index_frames, untouched_csv_frames
from .library_writes import imported_tops, library_patch
from .shell_source import automagic_head

# Identifiers through which code can bind a global name without an assignment the parser sees.
_NO_WORDS: Mapping[str, str] = MappingProxyType({})  # (no name bound to a plain word)
_DYNAMIC_NAMES = {"exec", "eval", "execfile", "globals", "vars", "locals", "__builtins__", "builtins", "__builtin__",
                  "__main__", "__import__", "importlib", "runpy", "setattr", "__dict__"}
_DYNAMIC_ATTRS = {"user_ns", "user_global_ns", "push", "run_cell", "run_code", "ex", "ev", "safe_execfile",
                  "modules", "magic", "__dict__",
                  # the builtins module as other modules hold it (`site.builtins`, `enum.bltns`), the
                  # shell's own tables and module, and functions that hand back a module by its name
                  "builtins", "bltns", "__builtins__", "ns_table", "user_module", "define_macro",
                  "resolve_name", "locate", "getmodule", "import_module", "run_path", "run_module",
                  "load_source", "load_module", "exec_module", "load_extension", "extension_manager",
                  "get_type_hints", "runsource", "runcode", "run_docstring_examples", "testmod", "runctx",
                  # a builtin function's own module (`print.__self__` is `builtins`)
                  "__self__",
                  # library functions that write attributes into what they are given, a module too:
                  # `update_wrapper(np, obj)` copies `obj.__dict__`, `parse_args(argv, np)` sets options
                  "update_wrapper", "wraps", "parse_args", "parse_known_args", "parse_intermixed_args",
                  "parse_known_intermixed_args",
                  # native code a library loads from a file or builds from text: it runs as it loads
                  "load_library", "load_op_library", "load_inline", "cpp_extension", "LoadLibrary", "dlopen"}
# Standard modules that run code given as text or by module name: imported at all, they leave
# every name unknown (`from importlib import import_module`, `timeit.timeit(text)`).
_CODE_RUNNING_MODULES = {"importlib", "runpy", "imp", "code", "codeop", "timeit", "cProfile", "profile",
                         "doctest", "pdb", "bdb", "trace", "pkgutil", "pydoc", "builtins", "__main__",
                         "pickle", "dill", "shelve", "marshal",
                         "gettext"}  # (`gettext.install` writes `_` and ngettext, ... into the builtins)
# Ways to reach a namespace through objects, not names: a frame's or a function's globals
# (`sys._getframe().f_globals['y'] = 1`), every object alive (`gc`), or an attribute read by a
# name that is not written out. Named as an attribute, imported by name, or spelled in a string,
# each one leaves every name unknown.
_REACHING_ATTRS = {"f_globals", "f_locals", "f_builtins", "__globals__", "func_globals", "get_objects",
                   "get_referrers", "get_referents", "__getattribute__", "attrgetter", "getattr_static", "__self__",
                   # every attribute of an object, by names computed at run time; a frame's locals
                   "getmembers", "getmembers_static", "getargvalues"}
# What a cell may do with the shell (`get_ipython()`) without reaching the namespace, its builtins
# or its magics: what IPython itself writes for `%magic` and `!cmd` lines (read further below).
_SHELL_CALLS = {"run_line_magic", "run_cell_magic", "magic", "system", "getoutput"}
# Code that runs with the target's own lines: a trace or profile function or monitoring callback
# (which can also jump over lines: `frame.f_lineno = n`), IPython's event callbacks. With one
# installed the recorded facts cannot say what the target does: the replay claims nothing.
_RUNS_WITH_TARGET = {"settrace", "setprofile", "monitoring", "f_lineno", "f_trace", "events",
                     # the shell's own rewriting and display of the target, and audit hooks
                     "input_transformers_cleanup", "input_transformers_post", "ast_transformers",
                     "input_transformer_manager", "prefilter_manager", "register_transformer",
                     "displayhook", "display_formatter", "ast_node_interactivity", "addaudithook",
                     # state the checker would read from its own process, not the recording kernel's:
                     # warning filters (a warning turned into an error, even at compile time),
                     # NumPy's floating-point error handling, the int/str digit limit
                     "simplefilter", "filterwarnings", "seterr",
                     "seterrcall", "errstate", "set_int_max_str_digits",
                     # a recursion limit set low: the target overflows it before its crashing line
                     "setrecursionlimit",
                     # threads keep running beside the target and may change what it reads
                     "Thread", "Timer", "start_new_thread", "start_new", "ThreadPoolExecutor", "ProcessPoolExecutor",
                     "run_in_executor", "to_thread", "Process", "DummyProcess", "submit",
                     # and so do code a pool's result thread calls back, a signal handler on a timer,
                     # and callbacks the kernel's event loop runs between cells
                     "Pool", "ThreadPool", "apply_async", "map_async", "starmap_async", "signal", "setitimer",
                     "alarm", "call_later", "call_at", "call_soon", "call_soon_threadsafe", "ensure_future",
                     "create_task", "run_coroutine_threadsafe", "add_done_callback",
                     # a compile flag the shell keeps for later cells (`!=` is then a SyntaxError), and
                     # IPython macros, whose name at the head of a line runs their text instead
                     "barry_as_FLUFL", "Macro", "define_macro"}
# Magics that cannot bind a name in the user's namespace (`%time x = 1` can: it is not here).
# `%tensorflow_version` picks Colab's TensorFlow (elsewhere it is an unknown magic: UsageError).
_INERT_MAGICS = {"matplotlib", "pip", "conda", "tensorflow_version"}
# One-line cells IPython runs as these magics, which show or list and bind nothing (`rehashx`, by
# contrast, defines an alias for every program on the PATH).
_INERT_AUTOMAGIC = {"pwd", "ls", "who", "whos", "who_ls", "history", "lsmagic", "matplotlib", "pip", "conda", "env",
                    "clear", "pinfo", "pinfo2", "pdef", "pdoc", "psource", "pfile", "page", "time", "timeit",
                    "precision", "colors", "xmode", "autosave", "connect_info"}
# What turns a showing magic into one that writes files: a shell's redirection or chaining (`ls`
# is the shell's, `%pip` runs its line in a shell) and `%history -f FILE`, which writes the cells,
# and with `-o` their outputs' text, to any file (a module a later import finds).
_WRITES_AS_IT_SHOWS = re.compile(r"[;&|<>`]|\s-[A-Za-z]*f|--file")
# `%config` runs `cfg.<line>` as code: only plain settings of these classes are taken as inert.
_INERT_CONFIG = re.compile(r"\s*(InlineBackend|IPCompleter|Completer)\.\w+\s*=\s*"
                           r"('[^'{}$]*'|\"[^\"{}$]*\"|-?\d+(\.\d+)?|True|False|None)\s*$")
# IPython expands `{expression}` and `$name` in the arguments of magics and `!` commands
# (`var_expand`) by evaluating them in the namespace.
_EXPANDED_CALLS = {"system", "getoutput", "run_line_magic", "run_cell_magic", "magic", "system_piped",
                   "system_raw"}
# Modules that put names into the user's namespace when imported.
_INJECTING_MODULES = {"pyforest", "pylab", "IPython"}
# IPython's display helpers that bind no name and show no code of their own: the import most
# notebooks make of IPython. Not `Javascript`, `HTML`, `SVG`, `Markdown`, `IFrame`, ...: in a
# trusted output they run script in the front end, which can send cells of its own to the kernel.
_DISPLAY_MODULES = {"IPython.display", "IPython.core.display", "IPython.core.display_functions"}
_PLAIN_DISPLAY = {"display", "clear_output", "update_display", "Image", "Audio", "Video", "FileLink", "FileLinks"}
# Well-known libraries a notebook imports; any other module not in the standard library may be
# the user's own file, which can write into `__main__` when imported.
_KNOWN_LIBRARIES = frozenset("""
numpy pandas sklearn scipy matplotlib seaborn plotly statsmodels torch torchvision torchaudio
torchtext tensorflow keras tensorflow_hub tensorflow_datasets xgboost lightgbm catboost optuna
transformers datasets tokenizers nltk spacy gensim cv2 PIL skimage imblearn sentencepiece
missingno tqdm joblib wordcloud yellowbrick shap lime mlxtend category_encoders tabulate
kagglehub kaggle_datasets geopandas folium bokeh holoviews hvplot altair networkx
requests bs4 lxml h5py pyarrow polars dask numba timm albumentations keras_tuner kerastuner
pytorch_lightning lightning einops accelerate evaluate peft sentence_transformers librosa
soundfile pydub emoji textblob regex unidecode langdetect pmdarima prophet arch mpl_toolkits
pydicom nibabel ydata_profiling pandas_profiling sweetviz umap hdbscan sklearn_pandas idx2numpy
openpyxl xlrd graphviz pydot termcolor colorama rich tensorflow_addons scikitplot
""".split())


# The standard modules notebooks import whose functions bind no name of the caller's and reach no
# module by a name computed at run time. Any other one (`enum.global_enum` writes into the module a
# string names, `inspect.get_annotations(f, eval_str=True)` and `functools.singledispatch` evaluate
# annotations, `multiprocessing.reduction` unpickles, `asyncio` runs callbacks later) leaves every
# name unknown: the replay follows what it can read, not a list of what it cannot.
_NOTEBOOK_STDLIB = frozenset("""
__future__ os sys re string glob math cmath random time datetime calendar collections itertools
operator json csv warnings statistics pathlib shutil zipfile tarfile gzip bz2 lzma io textwrap copy
decimal fractions numbers heapq bisect array uuid hashlib base64 pprint typing dataclasses abc
contextlib urllib html unicodedata locale platform tempfile traceback logging subprocess struct
secrets difflib fnmatch zlib queue gc functools imghdr colorsys mimetypes wave getpass
""".split())
# What those reach that runs text or names a module: logging's configuration imports classes by
# dotted name, and singledispatch evaluates string annotations.
_NOTEBOOK_STDLIB_CODE = re.compile(r"\blogging\s*\.\s*config\b|\bsingledispatch")
# A query or eval text that reaches a name of the notebook's and goes on from it (`@pd.io...`, `@f(x)`).
_QUERY_REACHING = re.compile(r"@\s*[A-Za-z_]\w*\s*[.(\[]")
_DUNDER_TEXT = re.compile(r"__\w+__")
# Modules that unpickle, import or evaluate what they are given, as another module's attribute
# (`pd.io.pickle.pickle.loads`).
_CODE_RUNNING_ATTRS = {"pickle", "cPickle", "marshal", "shelve", "dill", "cloudpickle", "importlib", "runpy", "enum",
                       "inspect", "multiprocessing", "builtins"}


@dataclass(eq=False)
class RecordedKernel:
    names: Set[str]
    dynamic: Optional[str]
    modules: Set[str]
    aliases: Dict[str, Tuple[str, Optional[str]]]  # name -> (module, None) for `import`, (module, attr) for `from ... import`
    from_imports: Set[Tuple[str, str]]
    # Why the installed libraries may not behave as shipped in that kernel (an executed cell
    # patched one), or None. The recorded facts cannot show a patch, so no claim is made then.
    patches: Optional[str] = None
    dropped_row: Optional[Tuple[str, Any]] = None
    written: Optional[FrozenSet[str]] = frozenset()
    # An executed cell may have made objects that run code when freed (a `__del__`, a weakref
    # callback, `weakref.finalize`): then rebinding or deleting a recorded name may run it.
    finalizers: bool = False
    literals: Dict[str, Any] = field(default_factory=dict)
    unnamed_index: FrozenSet[str] = frozenset()
    # No executed cell names a dtype that could make a frame's column Index one pandas does not look
    # names up in (a Sparse one holding text): `df.Salary` is then the column.
    plain_column_index: bool = True
    # Frames read with `pd.read_csv` that no executed cell touched since (showing one, or
    # `df.head()`, `df.col.value_counts()`, does not touch it): their values are the parser's text
    # and numbers (fresh_frames.untouched_csv_frames).
    csv_frames: FrozenSet[str] = frozenset()
    # No executed cell could have changed what torch's operations do (recorded_tensors.py): a
    # recorded tensor's shape and dtype then decide them.
    tensors_as_recorded: bool = False
    # A recorded exact dict's listed keys are the keys it answers to: no executed cell acts out of
    # sight, renames a class (a dict subclass printing as `dict`) or defines what makes an object
    # equal to a text (`__eq__`, `__hash__`) or print as another (`__repr__`, which the recording shows).
    keys_as_recorded: bool = False
    # No executed cell imports a library that adds attributes to DataFrame, nor registers one
    # (recorded_attributes.py): a recorded frame's missing attribute is then missing.
    frame_attributes_as_shipped: bool = False
    # An executed cell may have made a class whose objects run code when freed, or a generator with
    # cleanup left suspended (or a cell does not parse): garbage of them is freed at any collection,
    # whatever the target does, so no claim is made.
    garbage_may_run_code: bool = False
    # No executed cell spells a frame's `attrs` or flags, which most frame methods copy or obey.
    frame_state_plain: bool = True


# What makes `df.drop([label], inplace=True)` do other than remove the rows or raise KeyError: an
# index of intervals (a label inside several of them is InvalidIndexError, inside one drops that
# interval), `attrs` whose copy may fail the first time only, a frame refusing `inplace=True`
# (`allows_duplicate_labels`).
_FRAME_STATE = re.compile(r"\b(attrs|flags|set_flags|allows_duplicate_labels|__finalize__|_metadata)\b")
_ROW_DROP_OTHERWISE = re.compile(r"\b(attrs|flags|set_flags|allows_duplicate_labels|\w*[Ii]nterval\w*|q?cut|bins|"
                                 r"from_breaks|read_parquet|read_feather|read_orc|read_hdf)\b")


_TIME_CELL = re.compile(r"\A(?:[ \t]*\n)*%%time[ \t]*\n")
_TIME_LINE = re.compile(r"^%time[ \t]+(?=\S)", re.M)


def _timed_code(cell: str) -> str:
    """The code a `%%time` cell or a `%time stmt` line runs: IPython runs it in the notebook's own
    namespace, as if the magic were not there (`%%timeit` runs it in a function, many times: left
    as the magic it is). A `%time` line whose statement the shell itself would rewrite (a magic, a
    `!` command, an automagic `run -i x.py`) is left as the magic too: `%time` transforms it."""
    match = _TIME_CELL.match(cell)
    if match:
        cell = cell[match.end():]
    return _TIME_LINE.sub(_plain_timed, cell)


def _plain_timed(match: "re.Match[str]") -> str:
    rest = match.string[match.end():].split("\n", 1)[0]
    return match.group(0) if rest.lstrip()[:1] in ("%", "!") or automagic_head(rest) else ""


def _dropped_row(stmt: Optional[ast.stmt]) -> Optional[Tuple[str, Any]]:
    """(name, label) when `stmt` is `name.drop([label], inplace=True)` along the rows (also
    `drop(label, ...)`, `drop(index=[label], ...)`, `axis=0` / `'index'`): DataFrame.drop finds the
    rows equal to the label and removes them all, or raises KeyError when there are none. Only an
    int or str label: what pandas compares it with is then the same the next time."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return None
    call = stmt.value
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "drop" and isinstance(func.value, ast.Name)):
        return None
    keywords = {}
    for kw in call.keywords:
        if kw.arg is None or kw.arg in keywords:
            return None
        keywords[kw.arg] = kw.value
    const = {k: v.value for k, v in keywords.items() if isinstance(v, ast.Constant)}
    if const.get("inplace") is not True or "axis" in keywords and const.get("axis", "?") not in (0, "index"):
        return None
    if set(keywords) - {"inplace", "axis", "index"} or len(call.args) + ("index" in keywords) != 1:
        return None
    if "index" in keywords and "axis" in keywords:
        return None
    labels = call.args[0] if call.args else keywords["index"]
    if isinstance(labels, (ast.List, ast.Tuple)) and len(labels.elts) == 1:
        labels = labels.elts[0]
    if not isinstance(labels, ast.Constant) or type(labels.value) not in (int, str):
        return None
    return func.value.id, labels.value


def _as_python_reads_it(cell: str, unparsed: str) -> str:
    """The cell's text for the checks that read words in it, in every spelling Python gives them:
    as written, with identifiers normalised (NFKC: `pd.ＩntervalIndex` is `pd.IntervalIndex`), and
    as the parse tree holds it (`unparsed`: adjacent literals joined, `'__d' 'el__'` is `'__del__'`)."""
    return "\n".join((cell, unicodedata.normalize("NFKC", cell), unparsed))


def _read(cell: str) -> Tuple[Optional[str], Optional[ast.AST], Optional[str]]:
    """The code the shell compiles for a cell, its parse tree (None, None: it does not parse) and
    the tree printed back (None when it does not parse, or nests too deep to print)."""
    try:
        code = python_source(cell)
        tree = ast.parse(code)
    except Exception:
        return None, None, None
    try:
        return code, tree, ast.unparse(tree)
    except Exception:
        return code, tree, None


def read_executed(cells: Iterable[str]) -> RecordedKernel:
    cells = [_timed_code(str(cell)) for cell in cells]
    names: Set[str] = set()
    dynamic: Optional[str] = None
    modules: Set[str] = set()
    from_imports: Set[Tuple[str, str]] = set()
    imports: Dict[str, Set[Tuple[str, Optional[str]]]] = {}
    other: Set[str] = set()
    stores: List[Tuple[str, bool]] = []
    written: Optional[FrozenSet[str]] = frozenset()
    parsed: List[Tuple[int, ast.AST]] = []
    last: Optional[ast.stmt] = None  # the only statement of the last cell that ran one (None: unknown)
    runs_with_target: Optional[str] = None
    read = [_read(cell) for cell in cells]
    texts = [_as_python_reads_it(cell, unparsed or "") for cell, (_, _, unparsed) in zip(cells, read)]
    keys_are_items = not any(_PRIVATE_NAME.search(text) for text in texts)
    mentioned = _mentioned(cells, [tree for _, tree, _ in read])
    trees = [tree for _, tree, _ in read if tree is not None]
    kinds = BindingKinds(trees)
    plain_words = _plain_words(trees, kinds)
    os_names = _os_names(trees)
    for index, (cell, (code, tree, _)) in enumerate(zip(cells, read)):
        if tree is None:
            last = None
            dynamic = dynamic or f"executed cell {index + 1} does not parse"
            every = every_identifier(cell)
            names |= every
            other |= every
            continue
        if tree.body:
            last = tree.body[0] if len(tree.body) == 1 else None
        names |= bound_in(tree)
        head = automagic_head(code)
        # (IPython expands `{expression}` and `$name` in a magic's arguments by evaluating them)
        why = f"the line `{head}`, which IPython runs as the magic `%{head}`" \
            if head and (head not in _INERT_AUTOMAGIC or "{" in code or "$" in code or "%" in code or
                         _WRITES_AS_IT_SHOWS.search(code)) \
            else _dynamic_reason(tree, mentioned, kinds.modules, plain_words, os_names)
        if why and dynamic is None:
            dynamic = f"executed cell {index + 1} has {why}"
        hooked = _runs_with_target(tree)
        if hooked and runs_with_target is None:
            runs_with_target = (f"executed cell {index + 1} has {hooked}: code it installs may run with every line "
                                f"of the cell, and the recorded facts cannot show what it does")
        top_level = {id(stmt) for stmt in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if id(node) in top_level and not (isinstance(node, ast.ImportFrom) and node.level):
                    _record_import(node, modules, imports, from_imports)
                else:
                    for alias in node.names:
                        other.add(alias.asname or alias.name.split(".")[0])
        other |= bound_in(tree, imports=False)
        stores.extend(_attribute_store_roots(tree))
        written = _written_attributes(tree, written, keys_are_items)
        parsed.append((index, tree))
    if "__name__" in names:
        # (a class defined after `__name__ = 'torch'` takes it for its `__module__` and prints as
        # `torch.Tensor`: a recorded type may then be the notebook's own class)
        written = None
    # A cell that assigns to an attribute (`np.mean = ...`, `LogisticRegression.fit = ...`) may have
    # patched what any import yields: then no name is taken for the installed library's object.
    imported = set(imports)
    patched = any(root in imported or risky for root, risky in stores)
    # Nor once a cell may bind or unbind names out of sight (`%reset -f`, `exec('import pandas as np')`).
    aliases = {} if patched or dynamic is not None else {name: next(iter(targets)) for name, targets in imports.items()
                                                         if len(targets) == 1 and name not in other}
    patches = runs_with_target or library_patch(
        parsed, imported, {n for n, ts in imports.items() if all(a is None for _, a in ts) and n not in other},
        dynamic=dynamic is not None) or next(
        (f"executed cell {index + 1} has {why}, which may reach and change the builtins or a library"
         for index, why in ((i, _reaches_anything(t)) for i, t in parsed) if why), None)
    plain = dynamic is None and patches is None and written is not None
    return RecordedKernel(names, dynamic, modules, aliases, from_imports, patches,
                          None if dynamic is not None or any(_ROW_DROP_OTHERWISE.search(text) for text in texts)
                          else _dropped_row(last),
                          written, _may_finalize(texts, trees),
                          _literals(trees, names, kinds.count) if dynamic is None else {},
                          unnamed_index_frames(trees, aliases, kinds) if plain else frozenset(),
                          not any(_ODD_INDEX_DTYPES.search(text) for text in texts) and
                          all(_plain_dtypes(tree) for tree in trees) and len(parsed) == len(cells),
                          untouched_csv_frames(trees, aliases, kinds) if plain else frozenset(),
                          # (with `dynamic` None, every cell parsed: one that does not sets it)
                          dynamic is None and patches is None and "__name__" not in names and
                          tensors_as_recorded(trees, [unparsed for _, _, unparsed in read]),
                          plain and not any(_KEY_EQUALITY.search(text) for text in texts),
                          plain and attributes_as_shipped(trees, texts),
                          garbage_may_run_code=len(parsed) != len(cells) or _garbage_may_run_code(texts, trees),
                          frame_state_plain=not any(_FRAME_STATE.search(text) for text in texts))


_MAX_LITERAL = 10000
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Builtins that only iterate or show a list given to them: the list is the same afterwards.
_READING_BUILTINS = {"len", "print", "sorted", "set", "frozenset", "list", "tuple", "enumerate", "zip", "min", "max"}


def _literal(value: ast.AST) -> Any:
    """A list or tuple display of plain constants, as the value it builds; None otherwise."""
    if not isinstance(value, (ast.List, ast.Tuple)) or len(value.elts) > _MAX_LITERAL:
        return None
    if not all(isinstance(e, ast.Constant) and type(e.value) in (str, int, float, bool) for e in value.elts):
        return None
    items = [e.value for e in value.elts]
    return items if isinstance(value, ast.List) else tuple(items)


def _literals(trees: List[ast.AST], names: Set[str], bindings: Dict[str, int]) -> Dict[str, Any]:
    """The names bound once (`bindings`: how many places bind each name), by a top-level literal,
    and only read where nothing can change them."""
    candidates: Dict[str, Any] = {}
    for tree in trees:
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                found = _literal(stmt.value)
                if found is not None:
                    candidates[stmt.targets[0].id] = found
    reading = _READING_BUILTINS - names  # (a builtin some cell rebinds may be anything)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and type(node.value) is str and candidates:
                # (`df.eval('@lst.reverse()')`: pandas runs text as code)
                for word in _IDENTIFIER.findall(node.value):
                    candidates.pop(word, None)
        safe = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.For, ast.comprehension)):
                safe.add(id(node.iter))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in reading:
                safe.update(id(a) for a in node.args)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in safe:
                candidates.pop(node.id, None)
    return {name: value for name, value in candidates.items() if bindings.get(name) == 1}


# Spellings through which a cell can give an object code to run when it is freed, directly or by
# building the class or the attribute name at run time.
_FINALIZING_TEXT = ("__del__", "weakref", "finalize", "setattr", "__dict__", "exec", "eval", "__import__",
                    # a suspended generator's `finally` and `with` exits, a file object's `close`
                    "yield", "close", "__exit__")


def _garbage_may_run_code(texts: List[str], trees: List[ast.AST]) -> bool:
    """A class of the cells' that finalizes (its `__del__`, a weak reference's callback, a
    `weakref.finalize`, an `io` class's `close`), one made so out of sight (a computed namespace,
    `setattr`, code run from text), or a generator that cleans up (`finally`, `with`) when freed."""
    if any(word in text for text in texts for word in ("__del__", "weakref", "finalize")):
        return True
    for tree in trees:
        if _builds_namespaces(tree, spelled_ok=True):
            return True
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in ("exec", "eval", "__import__", "setattr", "compile"):
                return True
            if isinstance(node, ast.Attribute) and node.attr in ("__dict__", "__class__"):
                return True
            if isinstance(node, ast.ClassDef) and any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and
                                                      s.name in ("close", "flush", "__exit__") for s in node.body):
                return True
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node)) and \
                    any(isinstance(n, (ast.With, ast.AsyncWith)) or (isinstance(n, ast.Try) and n.finalbody)
                        for n in ast.walk(node)):
                return True
    return False


def _may_finalize(texts: Iterable[str], trees: Iterable[ast.AST]) -> bool:
    return any(word in text for text in texts for word in _FINALIZING_TEXT) or \
        any(_builds_namespaces(tree) for tree in trees)


# What fills a class's namespace with names computed at run time (`type('A', (), {'__d' + 'el__': f})`).
_NAMESPACE_BUILDERS = {"new_class", "make_dataclass", "locals", "vars", "__prepare__"}
# What reaches an attribute by a name computed at run time (`getattr(type, '__set' + 'attr__')`):
# the position of the name among the arguments.
_NAMED_LOOKUPS = {"getattr": 1, "attrgetter": 0, "methodcaller": 0}


def _builds_namespaces(tree: ast.AST, spelled_ok: bool = False) -> bool:
    """A class made from a namespace a cell computes, a class statement with a metaclass or class
    keywords, a metaclass (a class deriving from `type`), or an attribute reached by a computed
    name: any of them may give a class a `__del__` whose name no text spells. `spelled_ok`: a
    namespace written out with text keys, none of them a finalizing method, counts as spelled."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type" and \
                len(node.args) + len(node.keywords) > 1 and not (spelled_ok and _spelled_namespace(node)):
            return True
        if isinstance(node, ast.Call) and len(node.args) >= 3 and isinstance(node.args[2], (ast.Dict, ast.DictComp)) \
                and not (spelled_ok and _spelled_namespace(node)):
            return True  # (any metaclass called as `type` is: `abc.ABCMeta('A', (), {...})`)
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            at = _NAMED_LOOKUPS.get(node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
            if at is not None and not (len(node.args) > at and isinstance(node.args[at], ast.Constant)):
                return True
        if isinstance(node, ast.Name) and node.id in _NAMESPACE_BUILDERS or \
                isinstance(node, ast.Attribute) and node.attr in _NAMESPACE_BUILDERS:
            return True
        if isinstance(node, ast.ClassDef) and (node.keywords or any(
                isinstance(b, (ast.Name, ast.Attribute)) and (b.id if isinstance(b, ast.Name) else b.attr) == "type"
                for b in node.bases)):
            return True
    return False


def _spelled_namespace(call: ast.Call) -> bool:
    """`type('Sub', (Base,), {'x': 1})`: three arguments, the namespace a dict of text keys none of
    which finalizes (the class's own `__del__`, or a method an `io` base's finalizer calls)."""
    if len(call.args) != 3 or call.keywords or not isinstance(call.args[2], ast.Dict):
        return False
    keys = call.args[2].keys
    return all(isinstance(k, ast.Constant) and type(k.value) is str and
               k.value not in ("__del__", "close", "flush", "__exit__") for k in keys)


# A column Index of one of these dtypes does not hand its labels out as attributes.
_ODD_INDEX_DTYPES = re.compile(r"Sparse|ExtensionDtype|pandas_dtype|register_extension_dtype")
# What decides that an object is a dict key equal to a text, or what the recording shows for it.
_KEY_EQUALITY = re.compile(r"__(eq|hash|repr)__")
# A private attribute named anywhere (`model._modules`, `getattr(m, '_buffers')`): a PyTorch module
# serves the entries of those dicts as attributes, so a subscript's key may be one.
_PRIVATE_NAME = re.compile(r"[.'\"]_[A-Za-z0-9]")


# dtypes named by a builtin type or a NumPy / pandas attribute (`np.float32`, `pd.Int64Dtype`)
_PLAIN_DTYPE_NAMES = {"str", "int", "float", "bool", "object", "complex", "bytes"}


def _plain_dtypes(tree: ast.AST) -> bool:
    """Every dtype the cell gives (`astype(x)`, `dtype=x`) is written out: a text, a builtin type or
    a library attribute, none of them one of _ODD_INDEX_DTYPES (`astype('Spa' + 'rse[str]')`
    or `astype(kind)` may be)."""
    for node in ast.walk(tree):
        given = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "astype":
            given += node.args[:1]
        if isinstance(node, ast.keyword) and node.arg in ("dtype", "dtypes"):
            given.append(node.value)
        if isinstance(node, ast.Constant) and type(node.value) is str and _ODD_INDEX_DTYPES.search(node.value):
            return False  # (implicit concatenation, `'Spar' 'se[str]'`, is one text here)
        for value in given:
            if isinstance(value, ast.Constant) and type(value.value) is str:
                continue
            if isinstance(value, ast.Name) and value.id in _PLAIN_DTYPE_NAMES:
                continue
            if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and \
                    value.value.id in ("np", "numpy", "pd", "pandas"):
                continue
            return False
    return True


def _written_attributes(tree: ast.AST, so_far: Optional[FrozenSet[str]],
                        keys_are_items: bool = True) -> Optional[FrozenSet[str]]:
    """`so_far` plus the attribute names `tree` may set: every attribute stored or deleted and every
    string literal but a subscript's key (a name given to `setattr` & co.); None when it may set one
    out of sight: a dunder named (`__setattr__`, `__dict__`, `__setstate__`, `__class__`, ... as
    attribute, name or string), the interpreter's back doors (`gc.get_referents(obj)[0]` is the instance dict) or
    unpickling (a crafted pickle sets any instance attribute)."""
    if so_far is None:
        return None
    found = set(so_far)
    keys = _subscript_keys(tree) if keys_are_items else set()
    for node in ast.walk(tree):
        if id(node) in keys:
            continue
        if isinstance(node, ast.Attribute):
            if _writes_unseen(node.attr) or node.attr in _SETTING_BY_DATA:
                return None
            if node.attr == "__init__" and not _super_call(node.value):
                return None  # (`argparse.Namespace.__init__(df, **{n: v})` sets attributes on `df`)
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                if node.attr in _CLASS_NAMING:
                    return None  # (`Mine.__module__ = 'keras.src...'` makes a class print as a library's)
                found.add(node.attr)
        elif isinstance(node, ast.Name):
            if _writes_unseen(node.id) or (node.id in _CLASS_NAMING and isinstance(node.ctx, ast.Store)):
                return None
        elif isinstance(node, ast.Constant) and type(node.value) is str:
            if _writes_unseen(node.value) or node.value in _CLASS_NAMING:
                return None  # (`type('A', (B,), {'__module__': ...})` passes a class off as a library's)
            found.add(node.value)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == "__class__":
            return None  # (a class's own dunder methods act on its own instances, never a library's)
        elif isinstance(node, ast.ClassDef):
            # what a class defines, its instances answer (and a mixin hands on)
            found.update(b.name for b in node.body if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)))
        elif isinstance(node, ast.alias) and any(_writes_unseen(part) for part in node.name.split(".")):
            return None
        elif isinstance(node, ast.keyword) and node.arg is not None:
            # a keyword's name may become an attribute: `type('A', (B,), dict(load=f))`
            if _writes_unseen(node.arg) or node.arg in _CLASS_NAMING or node.arg in ("namespace", "module"):
                # (`parse_args(namespace=obj)` sets attributes the parser's options name;
                # `namedtuple('ndarray', 'n', module='numpy')` makes a class print as NumPy's)
                return None
            found.add(node.arg)
    return frozenset(found)


def _super_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _subscript_keys(tree: ast.AST) -> Set[int]:
    """The string literals that are only a subscript's key (`df['Salary']`, `df[['a', 'b']]`): an
    item, never an attribute name (`setattr` & co. take theirs as arguments)."""
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            parts = node.slice.elts if isinstance(node.slice, (ast.List, ast.Tuple)) else [node.slice]
            keys.update(id(p) for p in parts if isinstance(p, ast.Constant) and type(p.value) is str)
    return keys


# Library calls that set attributes on an object they are given, named by data: argparse's parsers
# (`parse_args(argv, obj)` sets each option's `dest`).
_SETTING_BY_DATA = {"parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args"}
# A class body binding these names passes its class off as another module's (a recorded type
# `keras.src.models.sequential.Sequential` may then be the notebook's own).
_CLASS_NAMING = {"__module__", "__qualname__", "__name__"}  # (3.11 prints a class by module and name)
# Dunders that only read what a module or class is called.
_PLAIN_DUNDERS = {"__name__", "__version__", "__file__", "__doc__", "__module__", "__qualname__", "__main__",
                  "__init__", "__len__", "__future__"}
# The interpreter's back doors to an instance dict, and unpickling, which fills one from a file.
_BACK_DOORS = {"gc", "ctypes", "get_referents", "get_referrers", "get_objects", "pythonapi", "pickle", "dill", "optparse",
               "cloudpickle", "joblib", "shelve", "copyreg", "read_pickle", "allow_pickle", "torch",
               # copying one object's instance dict into another's
               "update_wrapper", "wraps"}


def _writes_unseen(identifier: str) -> bool:
    dunder = len(identifier) > 4 and identifier.startswith("__") and identifier.endswith("__")
    return dunder and identifier not in _PLAIN_DUNDERS or identifier in _BACK_DOORS


def _record_import(node, modules: Set[str], imports, from_imports) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            _add_module(alias.name, modules)
            if alias.asname:
                imports.setdefault(alias.asname, set()).add((alias.name, None))
            else:
                top = alias.name.split(".")[0]
                imports.setdefault(top, set()).add((top, None))
        return
    module = node.module or ""
    _add_module(module, modules)
    for alias in node.names:
        if alias.name == "*":
            continue
        from_imports.add((module, alias.name))
        imports.setdefault(alias.asname or alias.name, set()).add((module, alias.name))


def _add_module(dotted: str, modules: Set[str]) -> None:
    parts = dotted.split(".")
    for i in range(1, len(parts) + 1):
        modules.add(".".join(parts[:i]))


def _attribute_store_roots(tree: ast.AST) -> List[Tuple[str, bool]]:
    """(root name, risky) of every `a.b... = v` / `del a.b`: risky when the root may hold a module or
    a library class without an import naming it (a function parameter, or a name assigned from a
    bare name or attribute chain such as `m = np.random`)."""
    params: Set[str] = set()
    chained: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
                if arg.arg != "self":
                    params.add(arg.arg)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and isinstance(
                getattr(node, "value", None), (ast.Name, ast.Attribute)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            chained.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            chained.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            chained.update(n.id for n in ast.walk(node.optional_vars) if isinstance(n, ast.Name))
    out: List[Tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            root = node.value
            while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
                root = root.func if isinstance(root, ast.Call) else root.value
            name = root.id if isinstance(root, ast.Name) else ""
            out.append((name, not name or name in params or name in chained))
    return out


def _reaches_anything(tree: ast.AST) -> Optional[str]:
    """Why a cell may reach any object, the builtins and the libraries included, and write into it:
    the shell's own objects (`get_ipython().builtin_trap.auto_builtins[...] = ...`) or `getattr`
    handed a computed name (`getattr(print, '__se' + 'lf__').KeyError = LookupError`); or None."""
    plain_shell, plain_getattr = _plain_uses(tree)
    return next((why for why in (_reaching(node, plain_shell, plain_getattr) for node in ast.walk(tree)) if why),
                None)


def _reaching(node: ast.AST, plain_shell: Set[int], plain_getattr: Set[int]) -> Optional[str]:
    """Why `node` may reach any object (`_reaches_anything`), or None."""
    if isinstance(node, ast.Name) and node.id == "get_ipython" and id(node) not in plain_shell:
        return "a use of the shell (`get_ipython()`) beyond magics and shell commands"
    if isinstance(node, ast.Name) and node.id == "getattr" and id(node) not in plain_getattr:
        return "`getattr` taken as a value or given a computed name"
    return None


def _dynamic_reason(tree: ast.AST, mentioned: FrozenSet[str] = frozenset(),
                    modules_only: FrozenSet[str] = frozenset(), plain_words: Mapping[str, str] = _NO_WORDS,
                    os_names: FrozenSet[str] = frozenset({"os"})) -> Optional[str]:
    """Why names may exist that no cell shows binding, or None. `mentioned`: every identifier the
    executed cells spell outside their import statements (`_mentioned`); `modules_only`: the names
    they bind by imports alone; `plain_words`: the names bound once to a plain word (`_plain_words`);
    `os_names`: the names an import binds to the os module (`_os_names`)."""
    plain_shell, plain_getattr = _plain_uses(tree)
    attribute_values = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    why = _moves_files(tree, os_names, attribute_values) or _loaders_handed_on(tree, attribute_values)
    if why:
        return why
    # `model.modules()`, called (PyTorch's layers of a model): `sys.modules` is a dict, and calling
    # it fails, so a called `.modules` is some object's method, never the table of modules.
    module_lists = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call) and
                    isinstance(node.func, ast.Attribute) and node.func.attr == "modules"}
    for node in ast.walk(tree):
        reaching = _reaching(node, plain_shell, plain_getattr)
        if reaching:
            return reaching
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return "a star import"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module_tops = {a.name.split(".")[0] for a in node.names} if isinstance(node, ast.Import) else \
                {(node.module or "").split(".")[0]}
            unused = _unused_import(node, mentioned)
            if module_tops & _CODE_RUNNING_MODULES and not unused:
                return f"an import of `{sorted(module_tops & _CODE_RUNNING_MODULES)[0]}`"
            for top in ([] if _plain_display_import(node) else imported_tops(node)):
                if unused and top in _INERT_UNUSED | _CODE_RUNNING_MODULES | _WRITING_MODULES:
                    continue
                if top in _INJECTING_MODULES:
                    return f"an import of `{top}`"
                if top not in _KNOWN_LIBRARIES and top not in _stdlib():
                    return f"an import of `{top}`, which may be a module of your own"
                if top in _stdlib() and top not in _NOTEBOOK_STDLIB:
                    return f"an import of the standard module `{top}`, which the replay does not follow"
        if isinstance(node, ast.Name) and node.id in _DYNAMIC_NAMES:
            return f"`{node.id}`"
        mention = None if id(node) in module_lists else _mention(node, _DYNAMIC_ATTRS) or _mention(node, _REACHING_ATTRS)
        if mention:
            return mention
        if isinstance(node, ast.Call) and _magic_name(node) is not None and _magic_name(node) not in _INERT_MAGICS \
                and not _inert_config(node):
            return f"the magic `%{_magic_name(node)}`"
        if isinstance(node, ast.Call) and _magic_name(node) in ("pip", "conda") and (
                len(node.args) < 2 or not isinstance(node.args[1], ast.Constant) or
                type(node.args[1].value) is not str or _WRITES_AS_IT_SHOWS.search(node.args[1].value) or
                _PLACING_INSTALL.search(f"{_magic_name(node)} {node.args[1].value}")):
            return f"`%{_magic_name(node)} install` of something other than an index's release by name"
        if _expanded(node, plain_words):
            return "a shell command or magic whose arguments IPython expands by evaluating them"
        if isinstance(node, ast.Constant) and type(node.value) in (str, bytes) and _MODULE_FILE.search(
                node.value if type(node.value) is str else node.value.decode("latin-1")):
            # (a cell that writes a module may shadow a library's name for the imports after it; a
            # path may be given as bytes)
            return f"the file name in {node.value!r:.40}, a module an import may then find"
        why = (_writes_files_unseen(node, modules_only) if not (isinstance(node, (ast.Import, ast.ImportFrom)) and
                                                             _unused_import(node, mentioned)) else None) or \
            _runs_code_by_name(node) or _reaches_unseen(node)
        if why:
            return why
    return None


# Modules that inject nothing when imported, only through what they hold (`IPython.get_ipython()`):
# imported under a name no cell uses, they do nothing (IPython is the kernel's own, loaded already).
# (pyforest binds names as it is imported.) The same holds for the standard modules that run code
# or place files, and for `dill`, which only adds to pickle's tables (unpickling is what counts).
_INERT_UNUSED = {"IPython", "pylab"}


# What a pickling module does besides loading: write an object out, name its protocols.
_WRITING_ONLY = {"dump", "dumps", "HIGHEST_PROTOCOL", "DEFAULT_PROTOCOL"}


def _mentioned(cells: List[str], trees: List[Optional[ast.AST]]) -> FrozenSet[str]:
    """Every identifier the cells spell (`trees`: each cell's parse tree, None where it does not
    parse) but as the names their import statements bind and as the module of a `.dump` /
    `.dumps`: names, attributes, parameters, keywords, definitions, and any identifier inside a text."""
    out: Set[str] = set()
    for cell, tree in zip(cells, trees):
        if tree is None:
            out |= every_identifier(cell)
            continue
        # (`pickle.dump(model, f)` writes: only a module's loaders run what they are given)
        writing = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute) and
                   node.attr in _WRITING_ONLY and isinstance(node.value, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.alias) or id(node) in writing:
                continue
            if isinstance(node, ast.Constant) and type(node.value) is str:
                out.update(_IDENTIFIER.findall(node.value))
            for field in ("id", "attr", "arg", "name", "rest"):
                spelled = getattr(node, field, None)
                if type(spelled) is str:
                    out.add(spelled)
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                out.update(node.names)
    return frozenset(out)


def _unused_import(node: ast.AST, mentioned: FrozenSet[str]) -> bool:
    """An import statement whose names no executed cell uses: what it loaded is reached through
    nothing the cells spell (importing a standard module runs only its own code)."""
    if isinstance(node, ast.ImportFrom) and (node.level or any(a.name == "*" for a in node.names)):
        return False
    bound = [a.asname or (a.name.split(".")[0] if isinstance(node, ast.Import) else a.name) for a in node.names]
    return bool(bound) and not any(name in mentioned for name in bound)


def _reaches_unseen(node: ast.AST) -> Optional[str]:
    """Ways into code or namespaces no name shows: a private attribute (`typing.ForwardRef._evaluate`,
    `argparse._StoreAction`), a dunder spelled inside a text (`df.query('@pd.__builtins__...')`),
    a query that calls through a name of the notebook's, `np.load`'s `allow_pickle` given by
    position, logging's configuration, singledispatch."""
    if isinstance(node, ast.Attribute) and node.attr in _CODE_RUNNING_ATTRS:
        return f"`.{node.attr}`, a module that runs what it is given, reached through another"
    if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
        return f"the private attribute `.{node.attr}`, which the replay does not follow"
    if isinstance(node, ast.Constant) and type(node.value) is str and \
            any(d not in _PLAIN_DUNDERS for d in _DUNDER_TEXT.findall(node.value)):
        return "a dunder named in a text, which code given as text may reach"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("query", "eval") \
            and any(isinstance(a, ast.Constant) and type(a.value) is str and _QUERY_REACHING.search(a.value)
                    for a in list(node.args) + [k.value for k in node.keywords]):
        return f"`.{node.func.attr}()` of a text that calls through a name of the notebook's"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _UNPICKLERS and \
            len(node.args) >= 3:
        return f"`.{node.func.attr}()` with three arguments (NumPy's third is `allow_pickle`)"
    if isinstance(node, (ast.Attribute, ast.Name)) and _NOTEBOOK_STDLIB_CODE.search(ast.unparse(node)):
        return f"`{ast.unparse(node)[:40]}`, which runs text or imports by name"
    return None


# Library entry points that import a module named in a string (a plotting backend, a style, a
# logging handler's class, a matplotlib backend) or unpickle a file (which runs whatever it names).
_IMPORTING_ATTRS = {"dictConfig", "fileConfig", "read_pickle", "load_backend"}
_UNPICKLING_MODULES = {"joblib", "torch", "cloudpickle", "dill", "pickle", "gensim"}
_UNPICKLERS = {"load", "loads", "Unpickler", "_load", "_loads", "load_pickle", "PackageImporter"}
# Texts that name a plotting backend or where one is read from (`pd.set_option('plotting.backend', ...)`,
# `rcParams['backend']`, the `MPLBACKEND` variable, a `matplotlibrc` file), or name one by module.
_BACKEND_TEXT = re.compile(r"^(plotting\.)?backend$|MPLBACKEND|MATPLOTLIBRC|matplotlibrc|module://")


def _called_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _misses_backend(arg: ast.AST) -> bool:
    """A `set_option` argument that cannot select `plotting.backend` (pandas takes any pattern that
    finds one option: `'plotting.b'`); data is no pattern."""
    if not isinstance(arg, ast.Constant):
        return False
    if type(arg.value) is not str:
        return True
    try:
        return re.search(arg.value, "plotting.backend", re.I) is None
    except re.error:
        return False


def _chain_names(node: ast.AST) -> Set[str]:
    """The names an attribute chain goes through (`a.b.c` -> a, b, c), calls and subscripts passed."""
    out: Set[str] = set()
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            out.add(node.attr)
        node = node.func if isinstance(node, ast.Call) else node.value
    if isinstance(node, ast.Name):
        out.add(node.id)
    return out


# Submodules of the unpickling libraries that hold their loaders (`torch.hub.load` runs a repository's
# `hubconf.py`).
_LOADING_SUBMODULES = {"hub", "jit", "package", "serialization", "numpy_pickle", "numpy_pickle_compat", "_pickle"}


def _loaders_handed_on(tree: ast.AST, attribute_values: Set[int]) -> Optional[str]:
    """An unpickling library, or a submodule of it holding loaders, handed on as a value (`jl = joblib`,
    `hub = torch.hub`): its `load` is then called by a name the scan does not know. `attribute_values`:
    the ids of the nodes an attribute is read from."""
    for node in ast.walk(tree):
        if id(node) in attribute_values or not isinstance(getattr(node, "ctx", None), ast.Load):
            continue
        if isinstance(node, ast.Name) and node.id in _UNPICKLING_MODULES:
            return f"`{node.id}` handed on as a value, whose loaders unpickle what they are given"
        if isinstance(node, ast.Attribute) and node.attr in _LOADING_SUBMODULES and \
                _root_name(node.value) in _UNPICKLING_MODULES:
            return f"`.{node.attr}` handed on as a value, whose loaders unpickle what they are given"
    return None


def _unpickler_from(module: str, name: str) -> bool:
    """`from joblib import load`, or a submodule of an unpickling library (`from joblib import
    numpy_pickle`, `from torch import hub`, whose `load` is then called by a name the scan does not
    know)."""
    if module.split(".")[0] not in _UNPICKLING_MODULES:
        return False
    if name in _UNPICKLERS or name in _LOADING_SUBMODULES:
        return True
    # (torch's other submodules, `nn` and the like, load nothing; every class of gensim's has a
    # `.load` that unpickles: `from gensim.models import Word2Vec`, then `Word2Vec.load(path)`)
    top = module.split(".")[0]
    return top == "gensim" or (top != "torch" and f"{module}.{name}" in sys.modules)


def _unpickler_imported(alias: ast.alias) -> bool:
    """`import joblib as jl`, `import joblib.numpy_pickle`, `import torch as T`, `import torch.hub`:
    a name the loaders are reached by that is not the library's own (`import torch.nn as nn`
    reaches none)."""
    top = alias.name.split(".")[0]
    if top not in _UNPICKLING_MODULES or alias.name == top and not alias.asname:
        return False
    return top != "torch" or alias.name in ("torch", "torch.serialization", "torch.hub")


def _root_name(node: ast.AST) -> Optional[str]:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None
_PLOT_BACKENDS = {"matplotlib", "plotly", "hvplot", "holoviews", "pandas_bokeh", "bokeh", "altair"}


def _runs_code_by_name(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.ImportFrom) and any(
            a.name in _IMPORTING_ATTRS or _unpickler_from(node.module or "", a.name) for a in node.names):
        return f"an import of `{node.module}`'s loaders, which unpickle or import what they are given"
    if isinstance(node, ast.Import) and any(_unpickler_imported(a) for a in node.names):
        # (`import joblib as jl`: its loaders are then called by a name the scan does not know)
        return "an unpickling library imported under another name or by a submodule"
    if isinstance(node, ast.Attribute) and node.attr in _IMPORTING_ATTRS:
        return f"`.{node.attr}`, which imports or unpickles what a string or a file names"
    if isinstance(node, ast.Attribute) and node.attr == "backend" and isinstance(node.ctx, ast.Store):
        return "a plotting backend set by name, which pandas imports"
    if isinstance(node, ast.Constant) and type(node.value) is str and _BACKEND_TEXT.search(node.value):
        return f"the text '{node.value[:40]}', which names a plotting backend (a module pandas or matplotlib imports)"
    if isinstance(node, ast.Call) and _called_name(node) in ("use", "switch_backend") and any(
            not isinstance(a, ast.Constant) for a in [*node.args, *(k.value for k in node.keywords)]):
        return f"`{_called_name(node)}()` of a backend computed at run time, which matplotlib imports"
    if isinstance(node, ast.Call) and _called_name(node) in ("set_option", "option_context") and (
            any(isinstance(a, ast.Starred) for a in node.args) or node.keywords or
            not all(_misses_backend(a) for a in node.args[::2])):  # (pattern, value, pattern, value, ...)
        return "a pandas option that may be its plotting backend, which pandas imports"
    if isinstance(node, ast.keyword) and node.arg == "safe_mode" and not (
            isinstance(node.value, ast.Constant) and node.value.value is True):
        return "`safe_mode=`, with which Keras runs the code a saved model holds"
    if isinstance(node, ast.Attribute) and node.attr == "enable_unsafe_deserialization":
        return "Keras' unsafe deserialization, which runs the code a saved model holds"
    if isinstance(node, ast.keyword) and node.arg == "trust_remote_code" and not (
            isinstance(node.value, ast.Constant) and node.value.value is False):
        return "`trust_remote_code=`, which runs the Python files of a model's repository"
    if isinstance(node, ast.keyword) and node.arg == "allow_pickle" and not (
            isinstance(node.value, ast.Constant) and node.value.value is False):
        return "`allow_pickle=`, which unpickles what a file holds"
    if isinstance(node, ast.keyword) and node.arg == "backend" and not (
            isinstance(node.value, ast.Constant) and node.value.value in _PLOT_BACKENDS):
        return "a plotting backend named by a string, which pandas imports"
    if isinstance(node, ast.Attribute) and node.attr in _UNPICKLERS and _chain_names(node.value) & _UNPICKLING_MODULES:
        # (called or taken as a value, reached from the library or through another module: `sklearn.utils.parallel.joblib`)
        found = sorted(_chain_names(node.value) & _UNPICKLING_MODULES)[0]
        return f"`{found}` ... `.{node.attr}`, which unpickles what it is given"
    if isinstance(node, ast.Call) and _called_name(node) in _UNPICKLERS and \
            any(k.arg is None for k in node.keywords):
        return f"`{_called_name(node)}()` given `**` arguments, which may let it unpickle"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "use" and \
            isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "style" and any(
                not (isinstance(a, ast.Constant) and type(a.value) is str and "." not in a.value) for a in node.args):
        return "a matplotlib style named by module, which matplotlib imports"
    return None


# A module's file named in text (`tabulate.py`, also inside a shell command or a path). (A `.pth`
# file, PyTorch's name for a checkpoint too, runs only when `site` reads its directory, at start-up
# or through the `site` module, whose import counts as placing files.)
_MODULE_FILE = re.compile(r"\.(py[cdw]?|so)\b")
# Shell commands that put files of unknown names in place (an archive's contents, a copy, a clone).
_FILE_PLACING_COMMANDS = re.compile(
    r"(^|[\s;&|(`])(unzip|tar|7z|cp|mv|rsync|ln|git|gunzip|bunzip2|tee|dd|unrar|xz|bzip2|zstd|cpio|sed|"
    r"python[0-9.]*|sh|bash|zsh|perl|ruby|node|kaggle|gdown|huggingface-cli|jupyter|make|cmake)\b|>|\$\("
    # (a download named by the server, not the URL written out)
    r"|--content-disposition|--trust-server-names|\s-[A-Za-z]*J")
# An install of what is not a package index's release by name: a local path, an archive, a
# repository, another index or target directory (a module there may take a library's name).
_PLACING_INSTALL = re.compile(r"\b(pip[0-9.]*|conda|mamba)\s+install\b.*?(\s(-t|--target|--prefix|--root|-e|--editable|"
                              r"--use-local|-f|--find-links|-i|--index-url|--extra-index-url)\b|\s[./~]|\.whl\b|"
                              r"\.tar\b|\.zip\b|git\+|file:|https?:)")
# File-writing functions whose target a cell can compute: a module written under a library's
# name (`'tabulate.p' + 'y'`) would be what a later `import tabulate` runs.
_WRITING_ATTRS = {"write_text", "write_bytes", "touch", "symlink_to", "hardlink_to", "urlretrieve",
                  "copyfile", "copy2", "copytree", "move"}
# Functions that write a file at the path given first (or as one of these keywords): under a name
# computed at run time, the file may be a module (a CSV whose header is `import builtins; ...`).
# (Writers of binary formats (`np.save`, `to_pickle`, a model's `save`) cannot make a module.)
_WRITERS = re.compile(r"^(to_csv|to_json|to_html|to_string|to_latex|to_markdown|to_xml|savetxt|tofile|FileIO|"
                      r"memmap|open_memmap|write_file|GFile|"
                      r"basicConfig|FileHandler|RotatingFileHandler|TimedRotatingFileHandler|WatchedFileHandler)$")
_PATH_KEYWORDS = {"path", "path_or_buf", "buf", "fname", "file", "filename", "filepath", "fid"}
# `Path.rename(target)` / `.replace(target)` move a file (pandas' `rename` and `replace` take a
# mapping or keywords, `str.replace` texts).
_MOVING_ATTRS = {"rename", "replace"}


def _may_move(call: ast.Call) -> bool:
    """`p.rename(target)`, `p.rename(target=t)` or `Path.rename(p, target)`: a call of `rename` /
    `replace` that may be pathlib's, given a computed target."""
    if any(kw.arg == "target" for kw in call.keywords):
        return True
    literal = (ast.Dict, ast.Lambda, ast.Constant, ast.List, ast.Tuple, ast.Set)
    if len(call.args) == 1 and not call.keywords:
        return not isinstance(call.args[0], literal)
    return len(call.args) == 2 and not isinstance(call.args[0], literal) and not isinstance(call.args[1], ast.Constant)


_WRITING_MODULES = {"shutil", "py_compile", "compileall", "zipfile", "tarfile", "zipimport",
                    # (processes running any command: `subprocess.run('... > seaborn.p' + 'y', shell=True)`)
                    "subprocess", "pty",
                    # (`site.addsitedir(d)` and `site.main()` run the import lines of `d`'s `.pth` files)
                    "site"}
# Calls that hand a command line to a shell: a command computed at run time may write anything.
_SHELL_ATTRS = {"system", "getoutput", "getstatusoutput", "popen"}
# Library functions that copy a file (a `file://` origin is a local one) or unpack an archive into
# a directory: Keras' `get_file`, torch.hub's and torchvision's downloaders, the Hugging Face hub's.
_FETCHING = {"get_file", "download_url_to_file", "download_url", "download_and_extract_archive", "extract_archive",
             "hf_hub_download", "snapshot_download", "unpack_archive"}


def _extracts(call: ast.Call) -> bool:
    """`get_file(..., extract=True)`: an archive's members, of names no cell shows, put in place."""
    return any(kw.arg in ("extract", "untar", "force_extract") and not (
        isinstance(kw.value, ast.Constant) and not kw.value.value) for kw in call.keywords)


# The os module's functions that put a file under a new name (or open one to write by descriptor).
_OS_PLACING = {"rename", "renames", "replace", "link", "symlink", "open"}
# Modules that are the os module, or hold it under these names.
_OS_MODULES = {"os", "posix", "nt"}


def _os_names(trees: Iterable[ast.AST]) -> FrozenSet[str]:
    """Every name an import of the executed cells binds to the os module (`import os as o`,
    `from pathlib import os`), and `os` itself."""
    found = {"os"}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(a.asname for a in node.names if a.asname and a.name in _OS_MODULES)
            elif isinstance(node, ast.ImportFrom):
                found.update(a.asname or a.name for a in node.names if a.name in _OS_MODULES)
    return frozenset(found)


def _moves_files(tree: ast.AST, os_names: FrozenSet[str], attribute_values: Set[int]) -> Optional[str]:
    """Why `tree` may move or link a file into place by a spelling the per-call reading misses: a
    placing function of the os module read from it (`os.rename`, `o.renames`, `os.path.os.link`)
    or imported from it, the module itself handed on (`o = os`, `getattr(os, name)`), or a
    file-writing method taken as a value (`mv = Path.rename`)."""
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in called and isinstance(node.ctx, ast.Load) and \
                node.attr in _WRITING_ATTRS | _MOVING_ATTRS:
            return f"`.{node.attr}` taken as a value, which may write a module a later import finds"
        if isinstance(node, ast.Attribute) and node.attr in _OS_PLACING and (
                (isinstance(node.value, ast.Name) and node.value.id in os_names) or
                (isinstance(node.value, ast.Attribute) and node.value.attr in _OS_MODULES)):
            return f"`.{node.attr}` of the os module, through which a module of the notebook's may shadow a library"
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in _OS_MODULES and \
                any(a.name in _OS_PLACING for a in node.names):
            return "an import of the os module's file-moving functions"
        # (the import path under any name: a directory put there may hold a module named like a
        # library that kernel did not have installed)
        if isinstance(node, ast.ImportFrom) and node.module == "sys" and any(a.name == "path" for a in node.names):
            return "an import of `sys.path`, through which a module of the notebook's may take a library's name"
        if isinstance(node, ast.Import) and any(a.name == "sys" and a.asname not in (None, "sys") for a in node.names):
            return "`sys` imported under another name, through which the import path may change"
        if isinstance(node, ast.Name) and node.id in os_names and isinstance(node.ctx, ast.Load) and \
                id(node) not in attribute_values:
            return "the os module handed on as a value"
    return None


def _writes_files_unseen(node: ast.AST, modules_only: FrozenSet[str] = frozenset()) -> Optional[str]:
    """Why `node` may write a file whose name the cell computes, or put files of unknown names in
    place, or add a directory to the import path; None otherwise. `modules_only`: names the cells
    bind by imports alone."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        tops = {a.name.split(".")[0] for a in node.names} if isinstance(node, ast.Import) else \
            {(node.module or "").split(".")[0]}
        if tops & _WRITING_MODULES:
            return f"an import of `{sorted(tops & _WRITING_MODULES)[0]}`, which puts files in place"
        return None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            (node.value.id, node.attr) in {("sys", "path"), ("site", "addsitedir")}:
        return f"`{node.value.id}.{node.attr}`, through which a module of the notebook's may shadow a library"
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in _WRITING_ATTRS:
        return f"`.{func.attr}()`, which may write a module a later import finds"
    if isinstance(func, ast.Attribute) and func.attr in _MOVING_ATTRS and _may_move(node):
        return f"`.{func.attr}()` of a computed target, which may move a module where a later import finds it"
    if isinstance(func, ast.Attribute) and func.attr in _SHELL_ATTRS and node.args:
        command = node.args[0]
        if not (isinstance(command, ast.Constant) and type(command.value) is str):
            return "a shell command computed at run time, which may put files in place"
        if _FILE_PLACING_COMMANDS.search(command.value) or _PLACING_INSTALL.search(command.value):
            return "a shell command that puts files of unknown names in place"
    if isinstance(func, ast.Attribute) and func.attr.startswith(("spawn", "posix_spawn")):
        return f"`.{func.attr}()`, which runs a program that may put files in place"
    called = _called_name(node)
    if called in _FETCHING and (_extracts(node) or not all(
            isinstance(a, ast.Constant) for a in [*node.args, *(kw.value for kw in node.keywords)])):
        return f"`{called}()` placing a file under a name computed at run time, or unpacking an archive"
    if called == "copy" and len(node.args) > 1 and not all(isinstance(a, ast.Constant) for a in node.args):
        return "`copy()` of a file to a path computed at run time (`tf.io.gfile.copy`), which may be a module"
    if called == "download" and (len(node.args) > 1 or any(kw.arg in ("out", "output") for kw in node.keywords)) and \
            not all(isinstance(a, ast.Constant) for a in [*node.args, *(kw.value for kw in node.keywords)]):
        return "`download()` to a path computed at run time, which may be a module a later import finds"
    if _WRITERS.match(called):
        path = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg in _PATH_KEYWORDS), None)
        if path is not None and not (isinstance(path, ast.Constant) and type(path.value) is str):
            return f"`{called}()` to a path computed at run time, which may be a module a later import finds"
    opener = (isinstance(func, ast.Name) and func.id == "open") or (isinstance(func, ast.Attribute) and func.attr == "open")
    if not opener:
        return None
    plain_open = isinstance(func, ast.Name)
    if _library_open_of_a_path(node, modules_only):
        return None
    mode = next((kw.value for kw in node.keywords if kw.arg == "mode"), None)
    if mode is None and len(node.args) > (1 if plain_open else 0):
        mode = node.args[1 if plain_open else 0]
    reading = mode is None or (isinstance(mode, ast.Constant) and type(mode.value) is str and
                               not set(mode.value) & set("wax+"))
    path = (node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "file"), None)) \
        if plain_open else None
    if reading or (path is not None and isinstance(path, ast.Constant)):
        return None
    return "a file written under a name computed at run time, which may be a module a later import finds"


# A text that is a file mode (`Path(p).open('w')`), not a path.
_FILE_MODE = re.compile(r"^[rwxabtU+]{1,4}$")


def _library_open_of_a_path(call: ast.Call, modules_only: FrozenSet[str]) -> bool:
    """`Image.open(path)`, `PIL.Image.open(path)`, `gzip.open(path)`: a module's or an imported
    class's `open` given the path alone opens it to read, in every library that has one (PIL's
    takes only 'r'; io, codecs, gzip, tarfile, dbm, fsspec default to reading). (`shelve.open`
    creates, but shelve is a module that runs code, never passed over when used.)"""
    func = call.func
    root = func.value if isinstance(func, ast.Attribute) else None
    while isinstance(root, ast.Attribute):
        root = root.value
    if not (isinstance(root, ast.Name) and root.id in modules_only) or len(call.args) != 1 or call.keywords \
            or isinstance(call.args[0], ast.Starred):
        return False
    only = call.args[0]
    return not (isinstance(only, ast.Constant) and type(only.value) is str and _FILE_MODE.match(only.value))


def _plain_display_import(node: ast.AST) -> bool:
    """`from IPython.display import Image, display`: display helpers only, under their own names."""
    return isinstance(node, ast.ImportFrom) and not node.level and node.module in _DISPLAY_MODULES and \
        all(a.name in _PLAIN_DISPLAY for a in node.names)


def _plain_uses(tree: ast.AST) -> Tuple[Set[int], Set[int]]:
    """The `get_ipython` names called bare for one of `_SHELL_CALLS` (`get_ipython().system(...)`),
    and the `getattr` names called with a written-out attribute name (`getattr(m, 'x')`)."""
    shell: Set[int] = set()
    plain: Set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in _SHELL_CALLS and isinstance(node.value, ast.Call):
            call = node.value
            if isinstance(call.func, ast.Name) and call.func.id == "get_ipython" and not call.args and not call.keywords:
                shell.add(id(call.func))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and \
                len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and type(node.args[1].value) is str:
            plain.add(id(node.func))
    return shell, plain


def _mention(node: ast.AST, attrs: Set[str]) -> Optional[str]:
    """How `node` names one of `attrs`: as an attribute, a name imported from a module, or a string."""
    if isinstance(node, ast.Attribute) and node.attr in attrs:
        return f"`.{node.attr}`"
    if isinstance(node, ast.ImportFrom):
        for alias in node.names:
            if alias.name in attrs:
                return f"an import of `{alias.name}`"
    if isinstance(node, ast.Constant) and type(node.value) is str and node.value in attrs:
        return f"the string '{node.value}'"
    return None


# Settings that only quieten: `warnings.filterwarnings('ignore')`, `np.seterr(all='ignore')` (in
# most notebooks) turn no warning or floating-point condition into an exception.
_QUIETENING = {"simplefilter": {"ignore", "default", "always", "once", "module"},
               "filterwarnings": {"ignore", "default", "always", "once", "module"},
               "seterr": {"ignore", "warn", "print"}, "errstate": {"ignore", "warn", "print"}}


def _quietening(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _QUIETENING):
        return False
    allowed = _QUIETENING[node.func.attr]
    values = list(node.args[:1] if node.func.attr.endswith(("filter", "warnings")) else node.args) + \
        [k.value for k in node.keywords if k.arg in ("action", "all", "divide", "over", "under", "invalid")]
    return bool(values) and all(isinstance(v, ast.Constant) and v.value in allowed for v in values) and \
        all(k.arg is not None for k in node.keywords)


def _runs_with_target(tree: ast.AST) -> Optional[str]:
    quiet = {id(node.func) for node in ast.walk(tree) if _quietening(node)}
    found = next((m for m in (_mention(node, _RUNS_WITH_TARGET) for node in ast.walk(tree) if id(node) not in quiet)
                  if m), None)
    if found is None and any(isinstance(node, ast.Call) and _magic_name(node) == "macro" for node in ast.walk(tree)):
        return "the magic `%macro`"
    if found is None and any(_gc_callbacks(node) for node in ast.walk(tree)):
        # (the garbage collector's callbacks run at any allocation, in the middle of the target's lines)
        return "`gc.callbacks`"
    return found


def _gc_callbacks(node: ast.AST) -> bool:
    """`gc.callbacks` (`import gc as g` too) or `from gc import callbacks`."""
    if isinstance(node, ast.ImportFrom):
        return (node.module or "") == "gc" and any(a.name == "callbacks" for a in node.names)
    if isinstance(node, ast.Import):
        return any(a.name == "gc" and a.asname not in (None, "gc") for a in node.names)  # (an alias: not followed)
    return isinstance(node, ast.Attribute) and node.attr == "callbacks" and isinstance(node.value, ast.Name) \
        and node.value.id == "gc"


def _expanded(node: ast.AST, plain_words: Mapping[str, str] = _NO_WORDS) -> bool:
    """`!echo {x}`, `%pip install $pkg`: the line of a shell command or magic that is not plain text
    without `{` or `$`, which IPython's var_expand would evaluate."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or \
            node.func.attr not in _EXPANDED_CALLS:
        return False
    at = 1 if node.func.attr in ("run_line_magic", "run_cell_magic") else 0
    line = node.args[at] if len(node.args) > at else None
    if line is None:
        return bool(node.keywords)
    if not (isinstance(line, ast.Constant) and type(line.value) is str):
        return True
    # (`{INPUT_DIR}` and `$INPUT_DIR`, for a name bound once to a plain word, expand to that word:
    # the line is then as plain as if it held the word; any other field may expand to anything, a
    # second command or a file name included)
    text = _NAME_FIELD.sub(lambda m: plain_words.get(m.group(1) or m.group(2), m.group(0)), line.value)
    if text == line.value:
        return "{" in text or "}" in text or "$" in text
    # (the line as IPython runs it: a word may be a command that places files, or such a file's name)
    return "{" in text or "}" in text or "$" in text or bool(
        _FILE_PLACING_COMMANDS.search(text) or _PLACING_INSTALL.search(text) or _MODULE_FILE.search(text))


_NAME_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_.])")
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_./:@+=, -]*")


def _plain_words(trees: Iterable[ast.AST], kinds: BindingKinds) -> Dict[str, str]:
    """The names the cells bind once, at top level, to a text with no character a shell reads
    (`INPUT_DIR = 'data'`), and never take as a parameter: IPython expands a field in a function's
    shell line from that function's locals, and a parameter of the same name may hold anything."""
    found: Dict[str, str] = {}
    for tree in trees:
        for stmt in getattr(tree, "body", []):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                    and isinstance(stmt.value, ast.Constant) and type(stmt.value.value) is str \
                    and _PLAIN_WORD.fullmatch(stmt.value.value) and kinds.count.get(stmt.targets[0].id) == 1 \
                    and stmt.targets[0].id not in kinds.parameters:
                found[stmt.targets[0].id] = stmt.value.value
    return found


def _inert_config(call: ast.Call) -> bool:
    """`%config InlineBackend.figure_format = 'retina'`: a plain setting of a display class."""
    if _magic_name(call) != "config" or len(call.args) != 2:
        return False
    line = call.args[1]
    return isinstance(line, ast.Constant) and type(line.value) is str and _INERT_CONFIG.match(line.value) is not None


def _magic_name(call: ast.Call) -> Optional[str]:
    """`get_ipython().run_line_magic('name', ...)`, what IPython turns `%name` into."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in ("run_line_magic", "run_cell_magic", "magic"):
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value.split()[0] if first.value.split() else ""
        return "?"
    return None


@lru_cache(maxsize=1)
def _stdlib() -> FrozenSet[str]:
    names = getattr(sys, "stdlib_module_names", None)
    if names is None:  # Python 3.9 has no list: the standard library's own files say it
        names = _stdlib_files()
    return frozenset(names) | {"__future__"}


def _stdlib_files() -> FrozenSet[str]:
    """Top-level module names of this interpreter's standard library: built in, or a file or
    package in its library folders (never site-packages, where installed packages live)."""
    found = set(sys.builtin_module_names)
    paths = sysconfig.get_paths()
    folders = {paths.get("stdlib"), paths.get("platstdlib")}
    folders |= {os.path.join(f, "lib-dynload") for f in list(folders) if f}
    for folder in folders:
        try:
            entries = os.listdir(folder) if folder else []
        except OSError:
            continue
        for entry in entries:
            if entry in ("site-packages", "dist-packages") or entry.startswith("."):
                continue
            full = os.path.join(folder, entry)
            if entry.endswith(".py"):
                found.add(entry[:-3])
            elif entry.endswith(".so") or entry.endswith(".pyd"):
                found.add(entry.split(".", 1)[0])
            elif os.path.isfile(os.path.join(full, "__init__.py")):
                found.add(entry)
    return frozenset(n for n in found if n.isidentifier())
