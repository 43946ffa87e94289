"""The cell as the shell will compile it: IPython's input transformers, its one-line prefilter
(automagic, autocall, macros) and the compile flags earlier cells set (`from __future__ ...`).

`prepare(source, shell)` returns a `Prepared`: the Python source the kernel will compile, the
compile flags it will use, and `rewritten` (a reason) when the shell may rewrite the cell in a way
the checker cannot follow, in which case the checker claims nothing about the cell.

Nothing here runs user code: IPython's static transformer is run only when it is IPython's own,
with its own transforms; the prefilter is not run but mirrored (it looks objects up in a way that
may reach a user's `__class__`), and every doubt answers "may rewrite".
"""

from __future__ import annotations

import __future__
import keyword
import re
import sys
import types
from functools import lru_cache
from dataclasses import dataclass
from typing import Any, FrozenSet, Optional, Tuple

from . import shell_code
from .static_reads import TRAPPED_BUILTINS, checked, instance_dict, ipython_module, loaded_module, lookup_static, \
    plain_keys
from .provenance import class_module, class_name, mro, notebook_builtins, own
from .outcome import Stop

# The flags `from __future__ import ...` can set, which the shell keeps for later cells.
FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag
ANNOTATIONS_FLAG = __future__.annotations.compiler_flag

# Prefilter checkers in IPython's default order, with their default priorities.
_DEFAULT_CHECKERS = (("EmacsChecker", 100), ("MacroChecker", 250), ("IPyAutocallChecker", 300),
                     ("AssignmentChecker", 600), ("AutoMagicChecker", 700), ("PythonOpsChecker", 900),
                     ("AutocallChecker", 1000))
_DEFAULT_HANDLERS = frozenset({"normal", "macro", "magic", "auto", "emacs"})


@dataclass(eq=False)
class Prepared:
    """What the shell will compile: `code` (Python), `flags` (compile flags), `rewritten` (a reason
    the checker must not judge the cell, or None), `flags_known` (False for recorded facts)."""

    code: str
    flags: int = 0
    rewritten: Optional[str] = None
    flags_known: bool = True
    tree: Any = None  # the AST, when it was parsed with these same flags
    # The shell displays expression values as they come (`ast_node_interactivity` "all", ...), and
    # displaying runs the value's own `__repr__` / `_repr_html_`: the reading stops at such a value.
    displays_values: bool = False
    # The shell's compiler also parses with codeop's flags (`if x:` alone is then "incomplete input",
    # a SyntaxError, not an IndentationError): used to name the error once a parse failed.
    parse_flags: int = 0
    # Top-level `await` compiles only while the shell's `autoawait` is on.
    top_level_await: bool = True

    def __post_init__(self) -> None:
        if self.flags:
            self.tree = None

    @property
    def annotations_deferred(self) -> Optional[bool]:
        """True when annotations are never evaluated (the future import, or Python 3.14's lazy
        annotations); None when the flags are not known."""
        if sys.version_info >= (3, 14) or self.flags & ANNOTATIONS_FLAG:
            return True
        return False if self.flags_known else None


def running_ipython() -> Any:
    """The running IPython shell, or None: the instance `InteractiveShell` holds as its singleton,
    which is what `get_ipython()` returns, read without calling it (it imports by name, and an import
    runs the code of a `sys.modules` entry a notebook replaced)."""
    mod = loaded_module("IPython.core.interactiveshell")
    base = checked(mod.__dict__).get("InteractiveShell") if mod is not None else None
    if base is None or not any(k is type for k in mro(type(base))):  # (a class: traitlets' metaclass)
        return None
    shell = lookup_static(base, "_instance")  # (read through the MRO: no metaclass is asked)
    return shell if shell is not None and any(k is base for k in mro(type(shell))) else None


def _is_ipython_own_manager(manager: Any) -> bool:
    """Whether the shell's static transformer is IPython's own, with exactly its default transforms."""
    try:
        it2 = ipython_module("IPython.core.inputtransformer2")
    except ImportError:
        return False
    if type(manager) is not it2.TransformerManager:
        return False
    fresh = it2.TransformerManager()
    for name in ("cleanup_transforms", "line_transforms", "token_transformers"):
        mine = checked(manager.__dict__).get(name)
        theirs = checked(fresh.__dict__)[name]
        if type(mine) is not list or len(mine) != len(theirs):
            return False
        for a, b in zip(mine, theirs):
            if a is b:
                continue
            if type(a) is it2.PromptStripper and type(b) is it2.PromptStripper:
                if {k: getattr(v, "pattern", v) for k, v in a.__dict__.items()} == \
                        {k: getattr(v, "pattern", v) for k, v in b.__dict__.items()}:
                    continue
            return False
    return True


def static_transform(cell: str) -> Tuple[str, Any]:
    """IPython's static input transformations (`%magic`, `!cmd`, `x?`, prompts), or the cell itself
    when IPython is not installed; with the cell's AST when that came for free (else None).
    Raises what IPython raises (SyntaxError for broken magics)."""
    tree = _untouched(cell)
    if tree is not None:
        return cell, tree
    escaped = len(_SHELL_LINE.findall(cell))
    if escaped > MAX_SHELL_LINES or escaped * len(cell) > MAX_SHELL_PASSES:
        raise TransformTooLong(f"IPython's transformer would take too long on a cell of {escaped} magic, `!` or help "
                               f"lines in {len(cell)} characters (it reads the whole cell again for each one)")
    return _transform(cell), None


# Lines IPython's transformer rewrites one at a time, re-reading the whole cell after each: past a
# few dozen, transforming the cell takes seconds (250 `!` lines: 3 s), in calls no alarm can cut.
# Its cost is those lines times the cell's length: 39 of them in 96,000 characters took 8.6 s, at
# about 400,000 characters read a second.
MAX_SHELL_LINES = 40
MAX_SHELL_PASSES = 150_000
_SHELL_LINE = re.compile(r"^[ \t]*[!%]|=[ \t]*[!%]|\?[ \t]*$", re.M)


class TransformTooLong(Exception):
    """The cell would take IPython's transformer longer than a check may."""


@lru_cache(maxsize=256)
def _transform(cell: str) -> str:
    try:
        it2 = ipython_module("IPython.core.inputtransformer2")
    except ImportError:
        return cell
    return it2.TransformerManager().transform_cell(cell)


def _untouched(cell: str) -> Any:
    """A fast, exact shortcut: on a cell that is already valid Python the transformer can only
    drop leading blank lines, a leading indent, and prompts it sees on the first two lines; a cell
    with none of those comes back as it is (the transformer is slower than the parser). Returns
    the cell's AST (parsed without future flags) when the shortcut applies, else None."""
    try:
        it2 = ipython_module("IPython.core.inputtransformer2")
    except ImportError:
        return None
    if not cell or cell[0] in " \t\r\n\f\v":
        return None
    if _OTHER_LINE_BREAKS.search(cell) or _DOCTEST_PROMPT.search(cell):
        # (IPython splits lines as str.splitlines does, and since IPython 9 strips `>>>` prompts
        # from every line once any line starts with one)
        return None
    first_two = cell.split("\n", 2)[:2]
    for stripper in (it2.classic_prompt, it2.ipython_prompt):
        for line in first_two:
            if stripper.initial_re.match(line) or stripper.prompt_re.match(line):
                return None
    try:
        return compile(cell, "<cell>", "exec", flags=_AST_ONLY, dont_inherit=True)
    except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
        return None


_AST_ONLY = 0x400  # ast.PyCF_ONLY_AST
_OTHER_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_DOCTEST_PROMPT = re.compile(r"^\s*>>>", re.M)
# What IPython's compiler adds to the future flags: codeop's (no implied dedent, incomplete input).
_CODEOP_FLAGS = 0x200 | 0x4000


def _shell_dict(shell: Any, name: str) -> Any:
    try:
        d = object.__getattribute__(shell, "__dict__")
    except Exception:
        return None
    return d.get(name)


def _trait(shell: Any, name: str) -> Any:
    """A traitlet's current value, read from the HasTraits storage (no observers, no user code)."""
    values = _shell_dict(shell, "_trait_values")
    if type(values) is dict and name in values:
        return values[name]
    if values is not None and type(values) is not dict:
        return None  # (traitlets would look the trait up in the notebook's mapping: its own code)
    try:  # a default not computed yet: the trait's own descriptor computes it
        return getattr(shell, name)
    except Exception:
        return None


def _shell_hooks_unchanged(shell: Any) -> Optional[str]:
    """None when the shell transforms cells exactly as a default IPython shell does, else why not."""
    manager = _trait(shell, "input_transformer_manager")
    if manager is None or not _is_ipython_own_manager(manager):
        return "the shell has its own input transformers"
    for name in ("input_transformers_post", "ast_transformers"):
        hooks = _trait(shell, name)
        if hooks is None:
            hooks = _shell_dict(shell, name)
        if type(hooks) is not list or hooks:
            return "the shell has its own input transformers"
    why = _pre_run_hooks_unknown(shell) or _display_unknown(shell) or _globals_elsewhere(shell) or \
        _run_path_unknown(shell)
    if why:
        return why
    try:
        InteractiveShell = ipython_module("IPython.core.interactiveshell").InteractiveShell
    except ImportError:
        return "IPython is not importable"
    cls = type(shell)
    if InteractiveShell not in mro(cls):
        return "the shell is not IPython's"
    compiler = _trait(shell, "compile") or _shell_dict(shell, "compile")
    pm = _trait(shell, "prefilter_manager")
    parts = [(shell, _SHELL_METHODS), (compiler, _COMPILER_METHODS), (manager, _MANAGER_METHODS),
             (pm, _PREFILTER_METHODS)]
    parts += [(t, ("__call__",)) for t in _transforms(manager) if not isinstance(t, types.FunctionType)]
    prefilter = _shell_dict(shell, "prefilter")  # (IPython sets it: the prefilter manager's own method)
    if type(prefilter) is not types.MethodType or prefilter.__self__ is not pm or \
            prefilter.__func__ is not lookup_static(type(pm), "prefilter_lines", None):
        return "the shell's cell handling was replaced"
    if not all(_genuine_methods(obj, names) for obj, names in parts) or \
            not all(own(t, "IPython") for t in _transforms(manager) if isinstance(t, types.FunctionType)):
        return "the shell's cell handling was replaced"
    return None


# What runs a cell, in the shell and its helpers: each must be IPython's (or the kernel's) own code,
# on the class and not shadowed on the instance (a replaced `run_code` may run the cell as `pass`).
_SHELL_METHODS = ("transform_cell", "run_cell", "run_cell_async", "_run_cell", "transform_ast", "run_ast_nodes",
                  "run_code", "should_run_async")
_COMPILER_METHODS = ("ast_parse", "__call__", "cache", "format_code_name", "get_code_name", "extra_flags",
                     "reset_compiler_flags")
_MANAGER_METHODS = ("transform_cell", "do_one_token_transform", "do_token_transforms")
_PREFILTER_METHODS = ("prefilter_lines", "prefilter_line", "prefilter_line_info", "find_handler", "transform_line",
                      "get_handler_by_name")


# The shell's helpers that run code of theirs as every cell runs: before its first line (the
# history's input names, the event triggers, the logger, the traps) and as it raises.
_RUN_PATH_PARTS = ("events", "logger", "builtin_trap", "display_trap", "displayhook", "history_manager")
# The shell's helpers whose settings traitlets reads through their `_trait_values` as a cell runs
# (whatever their class: a host may ship its own publisher or prefilter).
_TRAITED_PARTS = _RUN_PATH_PARTS + ("prefilter_manager", "input_transformer_manager", "display_formatter",
                                    "display_pub", "compile")


_NOT_BUILT = object()  # (a helper the shell builds on first use, not built yet: it runs nothing)


def _part(shell: Any, name: str) -> Any:
    """One of the shell's helpers: a trait's value, an attribute, or, for one IPython builds on first
    use behind a property (IPython 9's `logger`), what the property keeps, never building it
    (building it imports its module, through the notebook's import hooks)."""
    if type(lookup_static(type(shell), name, None)) is property:
        kept = _shell_dict(shell, "_" + name)
        return _NOT_BUILT if kept is None else kept
    return _trait(shell, name) or _shell_dict(shell, name)


def _run_path_unknown(shell: Any) -> Optional[str]:
    """Why what the shell runs around the cell may not be IPython's own (a patched function or class
    of IPython, the kernel or traitlets; a helper of the notebook's in the shell's place; a handler
    for the cell's exceptions), or None."""
    found = shell_code.changed()
    if found:
        return f"`{found}` is not as IPython, the kernel or traitlets ship it, and it runs around every cell"
    if any(type(_shell_dict(shell, tables)) is not dict for tables in _TRAIT_TABLES) or \
            any(not _plain_trait_tables(None if part is _NOT_BUILT else part)
                for part in (_part(shell, name) for name in _TRAITED_PARTS)):
        return "the shell's settings are read through a table of the notebook's (`_trait_values`)"
    for name in _RUN_PATH_PARTS:
        part = _part(shell, name)
        if part is _NOT_BUILT:
            continue
        if not _ipython_own_instance(part, keeps_callables=True):
            return f"the shell's `{name}` is not IPython's own"
    handled = _shell_dict(shell, "custom_exceptions")
    if type(handled) is not tuple or handled:
        return "the shell handles some exceptions itself (`set_custom_exc`)"
    trap = _trait(shell, "builtin_trap") or _shell_dict(shell, "builtin_trap")
    extra = _shell_dict(trap, "auto_builtins")
    if type(extra) is not dict or not all(type(k) is str and k in TRAPPED_BUILTINS for k in list(extra)):
        return "the shell puts builtins of the notebook's in place while the cell runs (`builtin_trap.auto_builtins`)"
    compiler = _trait(shell, "compile") or _shell_dict(shell, "compile")
    if not _ipython_own_instance(compiler, keeps_callables=True) or \
            type(_shell_dict(compiler, "_filename_map")) is not dict:
        return "the shell's compiler, which names and caches every cell, is not IPython's own"
    if _shell_dict(shell, "var_expand") is not None:
        return "the shell's `var_expand`, which expands `!` commands and magic lines, is the notebook's"
    logger = _part(shell, "logger")
    if logger is not _NOT_BUILT and _shell_dict(logger, "log_active") is not False:
        return "the shell logs each cell (`%logstart`) to a file it writes as the cell starts"
    return None


def _transforms(manager: Any) -> list:
    out = []
    for name in ("cleanup_transforms", "line_transforms"):
        found = checked(manager.__dict__).get(name) if manager is not None else None
        out.extend(found if type(found) is list else [])
    return out


def _genuine_methods(obj: Any, names: Tuple[str, ...]) -> bool:
    """`obj`'s methods of these names are IPython's or ipykernel's own, none set on the instance."""
    if obj is None:
        return False
    cls = type(obj)
    for name in names:
        if _shell_dict(obj, name) is not None:
            return False
        found = lookup_static(cls, name, None)
        if found is None:
            continue
        if not (any(own(found, package) for package in ("IPython", "ipykernel", "codeop")) or _builtin_slot(found)):
            return False
    return True


def _builtin_slot(found: Any) -> bool:
    """`object`'s own slot wrappers (a class that defines no `__call__` of its own has none)."""
    return type(found) in (types.WrapperDescriptorType, types.MethodDescriptorType, types.BuiltinFunctionType)


# The `pre_execute` / `pre_run_cell` callbacks known to leave the namespace and the libraries as
# they are: IPython's warning registry and display publisher, and our recorder. (autoreload's, which
# reloads modules whose files changed, is not: nor is any other function of IPython's, such as
# `get_ipython().reset`.)
# Each is a method, bound to the shell itself, to a display publisher of IPython's or the kernel's, or
# to our recorder.
_TRUSTED_HOOKS = {("IPython", "InteractiveShell._clear_warning_registry"): lambda owner, shell: owner is shell,
                  ("IPython", "DisplayPublisher._on_pre_execute"): lambda owner, shell: _ipython_own_instance(owner),
                  ("crane_llm", "Recorder.pre_run_cell"):
                      lambda owner, shell: class_module(type(owner)) == "crane_llm.lineage.recorder"
                      and class_name(type(owner)) == "Recorder"}


def _pre_run_hooks_unknown(shell: Any) -> Optional[str]:
    """Why the callbacks the shell runs before each cell may change what the cell sees (a
    notebook's `shell.events.register('pre_run_cell', ...)` may define names), or None."""
    events = _shell_dict(shell, "events")
    callbacks = _shell_dict(events, "callbacks") if events is not None else None
    if type(callbacks) is not dict:
        return "the shell's event callbacks are unknown"
    for event in ("pre_execute", "pre_run_cell"):
        hooks = callbacks.get(event, [])
        if type(hooks) is not list:
            return "the shell's event callbacks are unknown"
        for hook in hooks:
            if not _trusted_hook(hook, shell):
                return f"a `{event}` callback of the notebook's runs before the cell"
    return None


def _globals_elsewhere(shell: Any) -> Optional[str]:
    """IPython runs a cell as `exec(code, user_module.__dict__, user_ns)`: names the checks look up
    in `user_ns` are all the cell finds only while the two are one dictionary."""
    module = _shell_dict(shell, "user_module")
    ns = _shell_dict(shell, "_user_ns") or _shell_dict(shell, "user_ns")  # (IPython 9 keeps it behind a property)
    if type(module) is not types.ModuleType and class_module(type(module)) != "IPython.core.interactiveshell":
        return "the shell's module is not a plain module"
    if not all(found is None or own(found, "IPython") for found in
               (lookup_static(type(shell), name, None) for name in ("user_ns", "user_global_ns"))):
        return "the shell's namespaces are not IPython's own"
    try:
        globals_ = object.__getattribute__(module, "__dict__")
    except Exception:
        return "the shell's module is not a plain module"
    return None if globals_ is ns else "the shell runs cells with globals other than its namespace"


def _display_unknown(shell: Any) -> Optional[str]:
    """With `ast_node_interactivity` other than "last_expr" (or "none") the shell displays values
    before the cell's last statement: through formatters whose registries hold the notebook's
    printers, to a `sys.stdout` it may have replaced, into an output history (`_oh`, `_N`) it may
    have replaced or reads. None of that is modelled: the checks stop."""
    if not _displays_values(shell):
        return None
    return "the shell displays values mid-cell (`ast_node_interactivity`), through printers the notebook may have set"


_TRAIT_TABLES = ("_trait_values", "_trait_notifiers", "_trait_validators")


def _plain_trait_tables(obj: Any) -> bool:
    """`obj` keeps no trait table traitlets would read through a mapping of the notebook's."""
    if obj is None:
        return True
    try:
        d = instance_dict(obj, default=False)  # (through CPython's own slot: a `__dict__` property runs code)
    except Stop:
        return False
    if d is False:
        return lookup_static(type(obj), "__dict__") is None  # (no instance dictionary: no tables either)
    return all(type(d.get(t, {})) is dict for t in _TRAIT_TABLES)


def _ipython_own_instance(obj: Any, keeps_callables: bool = False) -> bool:
    """An instance of a class IPython or the kernel defines, with no method replaced on the instance.
    `keeps_callables`: what it holds as data may be callable (a trap's saved `sys.displayhook`); only
    a name its class gives a function may not be set on the instance."""
    cls = type(obj)
    if not class_module(cls).startswith(("IPython.", "ipykernel.")) or not _plain_trait_tables(obj):
        return False
    try:
        d = instance_dict(obj)
    except Stop:
        return False
    if d is None or not plain_keys(d):
        return False
    if keeps_callables:
        return not any(type(k) is not str or type(lookup_static(cls, k, None)) is types.FunctionType for k in list(d))
    return not any(type(k) is not str or type(v) in (types.FunctionType, types.MethodType, types.BuiltinFunctionType)
                   or callable(lookup_static(cls, k)) for k, v in list(d.items()))


def _own_runner(runner: Any) -> bool:
    """The shell's loop runner for top-level `await` is IPython's or the kernel's (a notebook's may
    never run the coroutine)."""
    if type(runner) is types.FunctionType:
        return own(runner, "IPython") or own(runner, "ipykernel")
    return _ipython_own_instance(runner) and _genuine_methods(runner, ("__call__",))


def _trusted_hook(hook: Any, shell: Any) -> bool:
    """One of `_TRUSTED_HOOKS`, bound to what it belongs to (IPython's own method bound to an object
    of the notebook's would read that object's attributes)."""
    if type(hook) is not types.MethodType or type(hook.__func__) is not types.FunctionType:
        return False
    fn, owner = hook.__func__, hook.__self__
    for (package, name), bound_well in _TRUSTED_HOOKS.items():
        if fn.__qualname__ == name and own(fn, package):
            return bound_well(owner, shell)
    return False


def _prefilter_rewrites(line: str, shell: Any, namespace: Any, magic_names: FrozenSet[str],
                        automagic: bool, autocall: int) -> Optional[str]:
    """Mirror of IPython's prefilter checkers for a one-line cell: why the shell may rewrite the
    line, or None when it certainly runs it unchanged."""
    try:
        LineInfo = ipython_module("IPython.core.splitinput").LineInfo
    except ImportError:
        return "IPython's prefilter is unknown"
    if not line.strip():
        return None
    info = LineInfo(line, False)
    ifun = info.ifun
    if line.endswith("# PYTHON-MODE"):
        return "IPython's emacs mode may rewrite this line"
    if ifun and type(namespace) is dict and ifun in namespace:
        obj = namespace[ifun]
        names = {class_name(k) for k in mro(type(obj))}
        if names & {"Macro", "IPyAutocall"} or lookup_static(type(obj), "__class__") is not _OBJECT_CLASS:
            # (IPython asks isinstance(), which believes a class's own `__class__`)
            return f"IPython calls `{ifun}` automatically (a macro or an autocall object)"
    if info.the_rest and info.the_rest[0] in "=,":
        return None  # an assignment: IPython leaves it to Python
    head = ifun.split(".", 1)[0]
    if automagic and head in magic_names and not _shadowed(head, namespace):
        return f"IPython runs this line as the magic `%{head}` (automagic)"
    if autocall and ifun:
        if info.the_rest and info.the_rest[0] in "!=()<>,+*/%^&|":
            return None
        return f"IPython's %autocall may turn this line into a call of `{ifun}`"
    return None


_OBJECT_CLASS = object.__dict__["__class__"]


def _line_magic_names(shell: Any) -> Optional[FrozenSet[str]]:
    mm = _trait(shell, "magics_manager")
    if mm is None:
        return None
    magics = _trait(mm, "magics")
    if type(magics) is not dict or type(magics.get("line")) is not dict:
        return None
    names = {k for k in magics["line"] if type(k) is str}
    lazy = _trait(mm, "lazy_magics")  # IPython 9 registers its own magics lazily
    if type(lazy) is dict:
        names.update(k for k in lazy if type(k) is str)
    elif lazy is not None:
        return None
    return frozenset(names)


@lru_cache(maxsize=1)
def default_line_magic_names() -> FrozenSet[str]:
    """The line magics and aliases a default IPython kernel has (for recorded facts, where the
    recording shell is gone): IPython's own magic classes and default aliases."""
    names = set()
    try:
        from IPython.core.alias import default_aliases
    except ImportError:
        return frozenset()
    try:
        from IPython.core.magics._table import BUILTIN_LAZY_MAGICS
        names.update(BUILTIN_LAZY_MAGICS.get("line", {}))
    except ImportError:  # IPython before lazy magics: its magic classes list their own
        from IPython.core import magics as core_magics
        from IPython.core.magic import Magics
        for obj in list(vars(core_magics).values()):
            if isinstance(obj, type) and issubclass(obj, Magics):
                table = checked(obj.__dict__).get("magics")
                if isinstance(table, dict):
                    names.update(table.get("line", {}))
    names.update(alias[0] for alias in default_aliases())
    # Magics ipykernel and matplotlib add at kernel start (`subshell`: ipykernel 7's).
    names.update({"matplotlib", "pylab", "gui", "connect_info", "qtconsole", "clear", "less", "more", "man",
                  "edit", "autosave", "config", "cd", "subshell",
                  "store"})  # (storemagic: an extension every IPython app loads by default)
    # Aliases the shell registers for its own magics as it starts (`hist` runs %history).
    names.update({"ed", "hist", "rep"})
    return frozenset(names)


def prepare_live(source: str, shell: Any, namespace: Any) -> Prepared:
    """The cell as `shell` will compile it. Raises SyntaxError as IPython's transformer does."""
    if shell is None:
        code, tree = static_transform(source)
        return Prepared(code, tree=tree)
    reason = _shell_hooks_unchanged(shell)
    compiler = _trait(shell, "compile") or _shell_dict(shell, "compile")
    flags = getattr(compiler, "__dict__", {}).get("flags") if compiler is not None else None
    if type(flags) is not int:
        return Prepared(source, 0, reason or "the shell's compile flags are unknown")
    if flags & ~(FUTURE_FLAGS | _CODEOP_FLAGS):
        reason = reason or "the shell compiles with flags the checker does not follow"
    parse_flags, flags = flags & _CODEOP_FLAGS, flags & FUTURE_FLAGS
    if reason:
        return Prepared(source, flags, reason)
    autoawait = _trait(shell, "autoawait")
    if type(autoawait) is not bool or not _own_runner(_trait(shell, "loop_runner")):
        return Prepared(source, flags, "the shell's way of running `await` is unknown")
    code, tree = static_transform(source)
    extra = dict(parse_flags=parse_flags, top_level_await=autoawait)
    if len(code.splitlines()) == 1:
        pm = _trait(shell, "prefilter_manager")
        why = _prefilter_state_unchanged(pm)
        if why:
            return Prepared(code, flags, why)
        magic_names = _line_magic_names(shell)
        automagic, autocall = _trait(shell, "automagic"), _trait(shell, "autocall")
        if magic_names is None or type(automagic) is not bool or type(autocall) is not int:
            return Prepared(code, flags, "the shell's automagic settings are unknown")
        why = _prefilter_rewrites(code.rstrip("\n"), shell, namespace, magic_names, automagic, autocall)
        return Prepared(code, flags, why, tree=tree, displays_values=_displays_values(shell), **extra)
    return Prepared(code, flags, tree=tree, displays_values=_displays_values(shell), **extra)


def _displays_values(shell: Any) -> bool:
    """Whether values may be displayed before the cell ends: every mode but the default and "none"
    (with "last", a loop that is the last statement displays in each pass)."""
    return _trait(shell, "ast_node_interactivity") not in ("last_expr", "none")


def _prefilter_state_unchanged(pm: Any) -> Optional[str]:
    try:
        prefilter = ipython_module("IPython.core.prefilter")
    except ImportError:
        return "IPython's prefilter is unknown"
    if type(pm) is not prefilter.PrefilterManager:
        return "the shell has its own prefilter"
    d = checked(pm.__dict__)
    checkers, transformers, handlers = d.get("_checkers"), d.get("_transformers"), d.get("_handlers")
    if type(checkers) is not list or type(transformers) is not list or type(handlers) is not dict:
        return "the shell has its own prefilter"
    if transformers or len(checkers) != len(_DEFAULT_CHECKERS) or set(handlers) != _DEFAULT_HANDLERS:
        return "the shell has its own prefilter"
    for checker, (name, priority) in zip(checkers, _DEFAULT_CHECKERS):
        cls = checked(prefilter.__dict__).get(name)
        if type(checker) is not cls or _trait(checker, "priority") != priority:
            return "the shell has its own prefilter"
        enabled = _trait(checker, "enabled")
        if enabled is not (name != "EmacsChecker"):
            return "the shell's prefilter settings differ from IPython's defaults"
    for hname, handler in handlers.items():
        if class_module(type(handler)) != prefilter.__name__ or not _genuine_methods(handler, ("handle",)):
            return "the shell has its own prefilter"
    if not all(_genuine_methods(checker, ("check",)) for checker in checkers):
        return "the shell has its own prefilter"
    return None


def _shadowed(name: str, namespace: Any) -> bool:
    """IPython's own rule (`is_shadowed`): a name the notebook defines, a builtin or a keyword is
    never automagic. Only keys that are exactly `str` count (no hashing or comparing of user
    objects): a name defined some other way leaves the line judged a magic, and the check stops."""
    if keyword.iskeyword(name):
        return True
    spaces = [notebook_builtins()] + ([namespace] if type(namespace) is dict else [])
    return any(type(key) is str and key == name for space in spaces for key in list(space))


def prepare_recorded(source: str, bound: Any) -> Prepared:
    """The cell as a default IPython kernel compiles it, for recorded facts: the kernel's compile
    flags are unknown, and a one-line cell is judged only when no prefilter rule can apply.
    `bound(name)` says whether a name is known to exist (then automagic does not apply)."""
    code, tree = static_transform(source)
    head = automagic_head(code)
    rewritten = f"IPython runs this line as the magic `%{head}` (automagic)" if head and not bound(head) else None
    called = _autocalled_head(code)
    if called:
        rewritten = f"IPython calls `{called}` itself on a line that starts with it (its autocall of `exit` and `quit`)"
    return Prepared(code, 0, rewritten, flags_known=False, tree=tree)


def _autocalled_head(code: str) -> Optional[str]:
    """`exit` or `quit` at the head of a one-line cell: IPython's prefilter calls these objects
    whatever follows (`exit, x[3]` becomes `exit(, x[3])`), even with autocall off."""
    info = _one_line_info(code)
    return info.ifun if info is not None and info.ifun in ("exit", "quit") else None


def _one_line_info(code: str) -> Any:
    """IPython's split of a one-line cell (`ifun`, `the_rest`), or None for longer cells."""
    if len(code.splitlines()) != 1:
        return None
    try:
        return ipython_module("IPython.core.splitinput").LineInfo(code.rstrip("\n"), False)
    except ImportError:
        return None


def automagic_head(code: str) -> Optional[str]:
    """The magic a default IPython kernel runs a one-line cell as (automagic: `pwd`, `rehashx`),
    unless a variable of that name exists; None when the cell is not such a line."""
    info = _one_line_info(code)
    if info is None:
        return None
    head = info.ifun.split(".", 1)[0]
    if not head or (info.the_rest and info.the_rest[0] in "=,"):
        return None
    return head if head in default_line_magic_names() else None


__all__ = ["running_ipython", "Prepared", "TransformTooLong", "prepare_live", "prepare_recorded", "static_transform", "FUTURE_FLAGS",
           "default_line_magic_names", "automagic_head"]
