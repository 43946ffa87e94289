"""The abstract interpreter: reads a cell statement by statement in Python's execution order.

Every statement either has an effect the checker knows exactly (a binding of a known value, an
import of a module the kernel already loaded, a library call a rule models) or ends the reading
with a `Stop` saying where and why. A rule that is certain raises `Crash`. Everything evaluated
before a claim is known to raise nothing, so the claimed exception is the first one the cell
raises. Values come from `lookup` (a live namespace or recorded facts) and never change: the
interpreter keeps its own bindings and, for objects a modelled call mutates in place, its own
shadow facts keyed by object identity.
"""

from __future__ import annotations

import ast
import builtins as _builtins
import sys
import types
from contextlib import contextmanager
from importlib.machinery import ModuleSpec
from inspect import getattr_static
from typing import Any, Callable, Dict, List, Optional, Set

from . import rules
from .static_reads import TRAPPED_BUILTINS, loaded_module, checked, instance_dict, lookup_static
from .live_adapter import LiveValue, is_estimator_class, is_plain_data, is_simple_constant
from .provenance import genuine_builtin, new_audit, notebook_builtins, real_builtin_name
from .finalizers import may_run_code_when_freed
from .locations import Imports, attribute_line, call_line, kernel_version
from .outcome import CertainCrash, Crash, Stop
from .abstract_values import NOTHING, BoundMethod, FactValue, Opaque, UserFunction, Value

DELETED = object()
# What a lookup answers for a name that may or may not exist (an executed cell binds it, but only
# inside a function, under a branch, or before a `del`): reading it may raise NameError.
MAYBE_BOUND = object()
MAX_ITERATIONS = 2000  # comprehension steps the checker will follow before giving up

_STMT_STOPS = {
    "For": "a for loop", "AsyncFor": "an async for loop", "While": "a while loop", "If": "an if statement",
    "Try": "a try block", "TryStar": "a try block", "With": "a with block", "AsyncWith": "an async with block",
    "Match": "a match statement", "Raise": "a raise statement", "Assert": "an assert statement",
    "Return": "a return statement", "Break": "a break statement", "Continue": "a continue statement",
}


def _column_on(node: ast.AST, line: int) -> Optional[int]:
    """Where on `line` the failing part of `node` starts: the attribute's (or the called method's)
    name when the instruction moved to the line it ends on."""
    attr = node if isinstance(node, ast.Attribute) else getattr(node, "func", None)
    if line == node.lineno:
        return node.col_offset
    if isinstance(attr, ast.Attribute) and attr.end_lineno == line and attr.end_col_offset is not None:
        return max(attr.end_col_offset - len(attr.attr), 0)
    return None


def _src(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:
        return "this expression"
    return text if len(text) <= 60 else text[:57] + "..."


# Names IPython writes into the namespace between or within cells: `!cmd` sets `_exit_code`, and a
# pre-execute hook of its own deletes `__warningregistry__` before every cell.
_SHELL_WRITES = frozenset({"_exit_code", "__warningregistry__"})

class Interpreter:
    """One reading of one cell. `lookup(name)` returns a Value, or None when the name is absent."""

    def __init__(self, lookup: Callable[[str], Optional[Value]], builtin_names: Optional[Dict[str, Any]],
                 names_complete: bool = True, identities_known: bool = True, optimize: Optional[int] = 0,
                 annotations_deferred: Optional[bool] = False, deadline: Any = None, recorded=None,
                 libraries_versioned_here: bool = True, python_version: Any = kernel_version(),
                 displays_values: bool = False):
        self.lookup = lookup
        # The (major, minor, micro) of the Python the cell runs on, which decides the line a multi-line
        # attribute read or method call fails on (locations.py); None in the replay: unknown.
        self.python_version = python_version
        # The top-level statement being read (IPython compiles each one on its own) and its imports.
        self.unit: Optional[ast.stmt] = None
        self.unit_imports: Optional[Imports] = None
        # False in the replay: the values were recorded under other library versions, so rules whose
        # outcome changes between versions (signatures, parameter validation) must not claim.
        self.libraries_versioned_here = libraries_versioned_here
        # `python -O` strips asserts (None: the recording kernel's flags are unknown).
        self.optimize = optimize
        # Annotations are never evaluated (future import, Python 3.14); False: evaluated; None: unknown.
        self.annotations_deferred = annotations_deferred
        # The check's time budget (crane_llm.deadline.Deadline), looked at between statements and
        # comprehension steps: once it has passed, the reading stops there and says so.
        self.deadline = deadline
        # Replay only: the RecordedKernel of the executed cells (modules they loaded), else None.
        self.recorded = recorded
        # Live objects show which names share one object; recorded facts do not, so after an
        # in-place change the replay reading must stop (another name may be the same object).
        self.identities_known = identities_known
        self.fresh: Set[int] = set()  # ids of objects this cell's code made (made_here)
        # None when the namespace's `__builtins__` is something the checker cannot read.
        self.builtin_names = builtin_names if builtin_names is not None else {}
        self.builtins_known = builtin_names is not None
        self.names_complete = names_complete
        self.bound: Dict[str, Any] = {}
        self.scopes: List[Dict[str, Any]] = []  # innermost last: class bodies and comprehensions
        self.scope_kinds: List[str] = []  # "class" or "comprehension", one per scope
        self.star_import = False
        self.shadow: Dict[int, Value] = {}  # id(live object) -> facts after an in-place change
        self.memo: Dict[str, Any] = {}  # answers about the process that hold for this one reading
        new_audit()  # library classes may have been patched since the last check
        self.keepalive: List[Any] = []
        self.displays_values = displays_values

    # ---- statements -------------------------------------------------------------------------
    def run(self, body: List[ast.stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def out_of_time(self, node: ast.AST) -> None:
        if self.deadline is not None and self.deadline.passed():
            raise Stop(getattr(node, "lineno", None),
                       f"the check's time budget ({self.deadline.describe()}) ran out here")

    def stmt(self, node: ast.stmt) -> None:
        if self.unit is None:
            self.unit, self.unit_imports = node, None
            try:
                self._stmt(node)
            finally:
                self.unit = None
            return
        self._stmt(node)

    def _stmt(self, node: ast.stmt) -> None:
        self.out_of_time(node)
        name = type(node).__name__
        handler = getattr(self, "s_" + name, None)
        if handler is not None:
            handler(node)
            return
        if name in ("If", "While"):
            self.ev(node.test)
        elif name == "Assert":
            if self.optimize:
                return  # `python -O` compiled the assert away: nothing of it runs
            if self.optimize is None:
                raise Stop(node.lineno, "an assert statement (the kernel may run with `python -O`)")
            self.ev(node.test)
        elif name in ("For",):
            self.ev(node.iter)
        elif name in ("With",):
            self.ev(node.items[0].context_expr)
        elif name == "Match":
            self.ev(node.subject)
        raise Stop(node.lineno, _STMT_STOPS.get(name, f"a {name} statement"))

    def s_Pass(self, node):
        pass

    def s_For(self, node):
        """A loop over items the checker lists runs its body once per item, in order, then its
        `else`. The items are taken once, as Python takes the iterator once: no modelled statement
        changes a list, tuple, str, dict or index in place (only frames are), so the passes see the
        items the real loop sees. `break` and `continue` end the reading where they are."""
        iterable = self.ev(node.iter)
        items = rules.containers.elements(iterable)
        if items is None or not isinstance(node.target, ast.Name):
            raise Stop(node.lineno, _STMT_STOPS["For"])
        if len(items) * max(len(node.body), 1) > MAX_ITERATIONS:
            raise Stop(node.lineno, f"{_STMT_STOPS['For']} too long to follow")
        self._order_known(iterable, node, _STMT_STOPS["For"])
        # A recorded text may have been shortened by the recorder: its first character is its own,
        # the rest is not known to be all of it.
        first_only = not self.identities_known and type(iterable.concrete()) is str
        for item in items[:1] if first_only else items:
            self.out_of_time(node)
            self.assign(node.target, item, node)
            self.run(node.body)
        if first_only and items:
            raise Stop(node.lineno, f"{_STMT_STOPS['For']} over recorded text (its first pass raises nothing "
                                    "the checker can prove)")
        self.run(node.orelse)

    def s_Global(self, node):
        pass  # at module level `global` changes nothing

    def s_Expr(self, node):
        value = self.ev(node.value)
        if not self.scopes and _is_docstring(node):
            # IPython compiles each top-level statement as a module of its own: a string alone is
            # that module's docstring, stored in `__doc__`.
            self.bound["__doc__"] = Opaque()
        if self.displays_values:
            shown = value.concrete()
            if shown is not None and not (shown is not NOTHING and type(shown) in (int, float, bool, str) and
                                          (type(shown) is not str or len(shown) <= 100000)):
                raise Stop(node.lineno, "the shell displays this value here (`ast_node_interactivity`), "
                                        "which runs its own display code")

    def s_Assign(self, node):
        value = self.ev(node.value)
        for target in node.targets:
            self.assign(target, value, node)

    def s_AnnAssign(self, node):
        # `x: A = v` runs v, binds x, then evaluates A (unless annotations are deferred); it also
        # creates `__annotations__`, a name the checker never claims undefined.
        if node.value is None:
            raise Stop(node.lineno, "an annotation without a value")
        if self.scopes:
            raise Stop(node.lineno, "an annotation in a class body")
        value = self.ev(node.value)
        self.assign(node.target, value, node)
        self._annotation(node.annotation, node)
        if node.simple and isinstance(node.target, ast.Name):
            self._annotation_stored(node)
            # (the store adds a key, or makes the dict anew after a `del`: what it holds is not followed)
            self.bound["__annotations__"] = _ANNOTATIONS_STORED

    def annotations_made_early(self, body: List[ast.stmt]) -> None:
        """A cell with a plain name's annotation outside any function or class may have its
        `__annotations__` made before its first line runs (IPython's own compile of such a cell):
        from the start, what that name holds is not followed (`del __annotations__` on line 1 runs)."""
        if not any(isinstance(n, ast.AnnAssign) and n.simple and isinstance(n.target, ast.Name)
                   for n in _module_level_nodes(body)):
            return
        held = self.lookup("__annotations__")
        c = held.concrete() if isinstance(held, Value) else NOTHING
        if held is None or held is DELETED or type(c) is dict:
            if type(c) is dict:
                checked(c)
            self.bound["__annotations__"] = _ANNOTATIONS_STORED

    def _annotation_stored(self, node) -> None:
        """A plain name's annotation is then stored: `__annotations__[name] = A`, into the namespace's
        `__annotations__` (an empty dict is made only when there is none). Anything but a plain dict
        there may raise (`__annotations__ = 5`) or run the notebook's `__setitem__`."""
        held = self.bound.get("__annotations__", NOTHING)
        if held is _ANNOTATIONS_STORED:
            return  # (the plain dict vetted at the cell's first annotation, or Python's own new one)
        if held is NOTHING:
            held = self.lookup("__annotations__")
        if held is None or held is DELETED:
            return
        c = held.concrete() if isinstance(held, Value) else NOTHING
        if type(c) is not dict:
            raise Stop(node.lineno, "storing an annotation in a `__annotations__` that is not a plain dict")
        checked(c)  # (a key that is not a plain string could have its `__eq__` run by the store)

    def _annotation(self, ann: ast.AST, node) -> None:
        """An annotation evaluated where Python evaluates it: never a claim (whether it runs at all
        depends on flags an earlier cell may set), but the reading goes on only if it cannot raise."""
        if self.annotations_deferred:
            return
        try:
            self.ev(ann)
        except Crash:
            raise Stop(node.lineno, "an annotation the checker cannot vouch for")

    def s_AugAssign(self, node):
        target = node.target
        if not isinstance(target, ast.Name):
            raise Stop(node.lineno, f"an in-place change of `{_src(target)}`")
        current = self.ev(ast.copy_location(ast.Name(id=target.id, ctx=ast.Load()), target))
        right = self.ev(node.value)
        if current.kind() not in ("int", "float", "str", "bool", "complex", "tuple"):
            raise Stop(node.lineno, f"an in-place change of `{target.id}`")
        result = rules.operators.binop(self, current, right, node.op, node)
        self.bind(target.id, result, node)

    def s_Delete(self, node):
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                base = self.ev(target.value)
                index = self._index(target.slice)
                if base.kind() == "frame":
                    rules.frames.delitem(self, base, index, target)
                    continue
            if not isinstance(target, ast.Name):
                raise Stop(node.lineno, f"deleting `{_src(target)}`")
            if not self._deletable(target.id, target):
                raise Crash(CertainCrash("NameError", target.lineno, target.col_offset,
                                         f"`{target.id}` is not defined here, so `del {target.id}` raises NameError.",
                                         "undefined-name", [target.id]))
            self.bind(target.id, DELETED, target)

    def _deletable(self, name: str, node) -> bool:
        """`del name` needs the name in the current scope itself: builtins do not count."""
        scope = self.scopes[-1] if self.scopes else self.bound
        if name in scope:
            return scope[name] is not DELETED
        if self.scopes:
            raise Stop(node.lineno, f"deleting `{name}` in a class body")
        if name in _SHELL_WRITES:
            raise Stop(node.lineno, f"`{name}`, which IPython itself binds or deletes as cells run")
        found = self.lookup(name)
        if found is MAYBE_BOUND:
            raise Stop(node.lineno, f"deleting `{name}`, which may not exist")
        if found is not None:
            return True
        if self.star_import:
            raise Stop(node.lineno, f"`{name}` may come from the star import above")
        if not self.names_complete:
            raise Stop(node.lineno, f"`{name}` is not in the recorded facts")
        return False

    def s_Import(self, node):
        self._import_is_real(node)
        for alias in node.names:
            top = alias.name.split(".")[0]
            if self._recorded_elsewhere(alias.name):
                self.bind(alias.asname or top, Opaque("module"), node)
                continue
            module = self._loaded_module(alias.name, node)
            _import_reads(module, node)
            if alias.asname:
                # `import a.b as m` binds what `a.b` is as an attribute of `a` (the module `a.b` only
                # when `a` holds no such name).
                self.bind(alias.asname, LiveValue(self._attribute_chain(alias.name, node)), node)
            else:
                self.bind(top, LiveValue(_import_reads(self._loaded_module(top, node), node)), node)

    def _attribute_chain(self, name: str, node) -> Any:
        parts = name.split(".")
        found: Any = self._loaded_module(parts[0], node)
        for i in range(1, len(parts)):
            if type(found) is not types.ModuleType:
                raise Stop(node.lineno, f"importing `{name}`, whose parent is not a module")
            d = checked(found.__dict__)
            if parts[i] in d:
                found = d[parts[i]]
            elif "__getattr__" in d:
                raise Stop(node.lineno, f"importing `{name}`, which asks a module's own `__getattr__`")
            else:
                found = self._loaded_module(".".join(parts[:i + 1]), node)
        return found

    def _recorded_elsewhere(self, name: str) -> bool:
        """Replay: a module the recorded kernel had loaded that this process has not: importing it
        again cannot fail, but what it holds is unknown."""
        return self.recorded is not None and name in self.recorded.modules and loaded_module(name) is None

    def s_ImportFrom(self, node):
        if node.level:
            raise Stop(node.lineno, "a relative import")
        self._import_is_real(node)
        if self._recorded_elsewhere(node.module or ""):
            for alias in node.names:
                known = ((node.module, alias.name) in self.recorded.from_imports
                         or f"{node.module}.{alias.name}" in self.recorded.modules)
                if alias.name == "*" or not known:
                    raise Stop(node.lineno, f"importing `{alias.name}` from `{node.module}`")
                self.bind(alias.asname or alias.name, Opaque(), node)
            return
        module = _import_reads(self._loaded_module(node.module or "", node), node, from_import=True)
        if node.module == "__future__" and any(a.name == "annotations" for a in node.names):
            self.annotations_deferred = True  # future imports come first: the whole cell is compiled so
        for alias in node.names:
            if alias.name == "*":
                self._star_import(module, node)
                continue
            found = checked(module.__dict__).get(alias.name, NOTHING)
            if found is NOTHING and "__getattr__" in checked(module.__dict__):
                raise Stop(node.lineno, f"importing `{alias.name}` from `{node.module}` asks its own `__getattr__`")
            if found is NOTHING:
                sub = loaded_module(f"{node.module}.{alias.name}")
                if sub is None or type(sub) is not types.ModuleType:
                    raise Stop(node.lineno, f"importing `{alias.name}` from `{node.module}` may run its code")
                found = sub
            self.bind(alias.asname or alias.name, LiveValue(found), node)

    def _star_import(self, module: types.ModuleType, node) -> None:
        """`from m import *` binds `m.__all__`, or m's public names; later names the checker cannot
        place are never claimed undefined."""
        self.star_import = True
        d = checked(module.__dict__)
        names = d.get("__all__", NOTHING)
        if names is NOTHING and "__getattr__" in d:
            raise Stop(node.lineno, f"`from {node.module} import *`, which asks the module's own `__getattr__`")
        if names is NOTHING:
            names = [k for k in d if type(k) is str and not k.startswith("_")]
        if type(names) not in (list, tuple) or not all(type(n) is str for n in names):
            raise Stop(node.lineno, f"`from {node.module} import *` with an `__all__` the checker cannot read")
        for n in names:
            if n not in d:
                raise Stop(node.lineno, f"`from {node.module} import *`, which may run the module's code")
            self.bind(n, LiveValue(d[n]), node)

    def _import_is_real(self, node) -> None:
        """An import statement calls `__import__` from the builtins: only Python's own is modelled."""
        if real_builtin_name(self.builtin_names.get("__import__")) != "__import__":
            raise Stop(node.lineno, "an import, and `__import__` is not Python's own")

    def _loaded_module(self, name: str, node) -> Any:
        # A module the kernel has not imported yet would run its code now, which may fail.
        module = loaded_module(name)
        if module is None or type(module) is not types.ModuleType:
            raise Stop(node.lineno, f"importing `{name}`, which the kernel has not loaded yet")
        return module

    def s_FunctionDef(self, node):
        self._function_header(node)
        self.bind(node.name, UserFunction(node.name), node)

    s_AsyncFunctionDef = s_FunctionDef

    def _function_header(self, node) -> None:
        # Decorators and defaults run at definition; the body does not.
        for dec in node.decorator_list:
            self.ev(dec)
        args = node.args
        for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
            self.ev(default)
        annotations = [a.annotation for a in args.posonlyargs + args.args + args.kwonlyargs if a.annotation]
        annotations += [a.annotation for a in (args.vararg, args.kwarg) if a is not None and a.annotation]
        if node.returns is not None:
            annotations.append(node.returns)
        for ann in annotations:
            self._annotation(ann, node)
        if node.decorator_list:
            raise Stop(node.lineno, f"a decorator applied to `{node.name}`")

    def s_ClassDef(self, node):
        for dec in node.decorator_list:
            self.ev(dec)
        for base in node.bases:
            self.ev(base)
        for kw in node.keywords:
            self.ev(kw.value)
        if node.decorator_list or node.bases or node.keywords:
            raise Stop(node.lineno, f"creating the class `{node.name}`, which runs library code")
        private = _mangled_name(node)
        if private is not None and node.name.strip("_"):
            raise Stop(node.lineno, f"the private name `{private}` in the body of class `{node.name}`, "
                                    f"which Python reads as `_{node.name.lstrip('_')}{private}`")
        if real_builtin_name(self.builtin_names.get("__build_class__")) != "__build_class__":
            raise Stop(node.lineno, f"creating the class `{node.name}`, and `__build_class__` is not Python's own")
        # Python fills these in before the body runs (`__module__` from the global `__name__`,
        # whatever that holds), and `__doc__` from a first statement that is a string.
        python_made = {"__module__": Opaque(), "__qualname__": Opaque("str")}
        if node.body and _is_docstring(node.body[0]):
            python_made["__doc__"] = Opaque()
        self._push("class", dict(python_made))
        try:
            for stmt in node.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._function_header(stmt)
                    self.scopes[-1][stmt.name] = UserFunction(stmt.name)
                elif isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr)
                                                    and isinstance(stmt.value, ast.Constant)):
                    continue
                elif isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
                    value = self.ev(stmt.value)
                    for t in stmt.targets:
                        self.scopes[-1][t.id] = value
                else:
                    raise Stop(stmt.lineno, f"the body of class `{node.name}`")
            for name, value in self.scopes[-1].items():
                if value is not python_made.get(name) and not _inert_in_class_body(name, value):
                    raise Stop(node.lineno, f"creating the class `{node.name}`, which acts on its `{name}`")
        finally:
            self._pop()
        self.bind(node.name, UserFunction(node.name), node)

    # ---- bindings ---------------------------------------------------------------------------
    def bind(self, name: str, value: Any, node: Any = None) -> None:
        if name == "__builtins__" and not self.scopes:
            # IPython compiles each top-level statement on its own: the next ones look names up in
            # the builtins this binding gives them.
            raise Stop(getattr(node, "lineno", None), "rebinding `__builtins__`")
        if name == "__warningregistry__":
            # (every warning after it looks itself up there, under any filter: not a dict is a TypeError)
            raise Stop(getattr(node, "lineno", None), "binding `__warningregistry__`, where every later warning "
                                                      "records itself")
        if self.scopes:
            self.scopes[-1][name] = value
            return
        if name not in self.bound:
            self._drops(name, node)
        self.bound[name] = value

    def _drops(self, name: str, node: Any) -> None:
        """Rebinding or deleting a kernel name may free its object, and freeing runs its class's
        `__del__` and its weak references' callbacks: after that, nothing is known."""
        old = self.lookup(name)
        if isinstance(old, LiveValue) and may_run_code_when_freed(old.obj):
            raise Stop(getattr(node, "lineno", None),
                       f"rebinding `{name}` may free an object that runs code when it is freed")
        if old is not None and self.recorded is not None and self.recorded.finalizers and \
                not (isinstance(old, LiveValue) and is_simple_constant(old.obj)):
            raise Stop(getattr(node, "lineno", None),
                       f"rebinding `{name}`, whose recorded value may hold an object an executed cell gave code "
                       "to run when it is freed")

    def assign(self, target: ast.AST, value: Value, stmt) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, value, target)
        elif isinstance(target, (ast.Tuple, ast.List)):
            parts = rules.containers.unpack(self, value, target, stmt)
            for sub, part in zip(target.elts, parts):
                if isinstance(sub, ast.Starred):
                    self.assign(sub.value, part, stmt)
                else:
                    self.assign(sub, part, stmt)
        elif isinstance(target, ast.Subscript):
            base = self.ev(target.value)
            index = self._index(target.slice)
            rules.setitem(self, base, index, value, target, stmt)
        elif isinstance(target, ast.Attribute) and target.attr == "columns":
            base = self.ev(target.value)
            if base.kind() != "frame":
                raise Stop(stmt.lineno, f"assigning to `{_src(target)}`")
            with self.located(attribute_line(target, self.python_version), target):
                rules.frames.set_columns(self, base, value, target, stmt)
        else:
            raise Stop(stmt.lineno, f"assigning to `{_src(target)}`")

    def _push(self, kind: str, scope: Dict[str, Any]) -> None:
        self.scopes.append(scope)
        self.scope_kinds.append(kind)

    def _pop(self) -> None:
        self.scopes.pop()
        self.scope_kinds.pop()

    def load(self, name: str, node: ast.AST) -> Value:
        last = len(self.scopes) - 1
        for i in range(last, -1, -1):
            # A class body's names are seen by its own statements only, not by the comprehensions
            # (nor functions) inside it.
            if self.scope_kinds[i] == "class" and i != last:
                continue
            if name in self.scopes[i]:
                return self.scopes[i][name]
        if name in self.bound:
            v = self.bound[name]
            if v is DELETED:
                self._not_trapped(name, node)
            if v is DELETED and name in self.builtin_names:
                return LiveValue(self.builtin_names[name])
            if v is DELETED:
                raise Crash(CertainCrash("NameError", node.lineno, node.col_offset,
                                         f"`{name}` is deleted earlier in this cell, so reading it raises NameError.",
                                         "undefined-name", [name]))
            v = self.unshadow(v)
            if isinstance(v, Value) and not isinstance(v, (UserFunction,)):
                v.name = name
            return v
        if name in _SHELL_WRITES:
            raise Stop(node.lineno, f"`{name}`, which IPython itself binds or deletes as cells run")
        found = self.lookup(name)
        if found is MAYBE_BOUND:
            raise Stop(node.lineno, f"`{name}`, which an executed cell may or may not have left bound")
        if found is not None:
            return self.unshadow(found).named(name) if isinstance(found, LiveValue) else found
        self._not_trapped(name, node)
        if name in self.builtin_names:
            return LiveValue(self.builtin_names[name])
        if not self.builtins_known:
            raise Stop(node.lineno, f"`{name}` may come from the namespace's own `__builtins__`")
        if name.startswith("__") and name.endswith("__"):
            # Python and IPython make dunder names on their own (`__annotations__`, `__builtins__`,
            # `__module__`, ...): one is never claimed undefined.
            raise Stop(node.lineno, f"`{name}`, a name Python may define by itself")
        if self.star_import:
            raise Stop(node.lineno, f"`{name}` may come from the star import above")
        if not self.names_complete:
            raise Stop(node.lineno, f"`{name}` is not in the recorded facts")
        raise Crash(CertainCrash("NameError", node.lineno, node.col_offset,
                                 f"`{name}` is not defined in the kernel, nor assigned earlier in this cell.",
                                 "undefined-name", [name]))

    @contextmanager
    def located(self, line: Optional[int], node: ast.AST):
        """A crash raised in the block happens in one instruction, the attribute read or the call,
        whose line CPython names by its own rules (locations.py), not always the line the rule read
        off the node: the claim gets that line, or none is made when it cannot be told."""
        try:
            yield
        except Crash as c:
            crash = c.crash
            if line is None:
                raise Stop(node.lineno, "a crash on a line this Python's compiler may name differently")
            if crash.line != line:
                if crash.correction is not None and crash.correction.get("line") == crash.line \
                        and isinstance(node, ast.Attribute):
                    crash.correction["line"] = line  # (`.attr` is written where the attribute ends)
                crash.line = line
                crash.column = _column_on(node, line)
            raise

    def _not_trapped(self, name: str, node: ast.AST) -> None:
        """A name read from the builtins: one IPython's builtin trap swaps while the cell runs ends the
        reading (`del get_ipython` then `get_ipython()` runs fine; `exit` is no builtin in a cell)."""
        if name in TRAPPED_BUILTINS:
            raise Stop(node.lineno, f"`{name}`, which IPython puts into or takes out of the builtins while a cell runs")

    def unshadow(self, value: Value) -> Value:
        """A live object a modelled call changed in place is answered from the shadow facts."""
        if isinstance(value, LiveValue) and self.shadow:
            sh = self.shadow.get(id(value.obj))
            if sh is not None:
                return sh
        return value

    def made_here(self, obj: Any) -> None:
        """`obj` was made by this cell's own code (a constructor the checker ran): no kernel name
        shares it, whatever the recorded facts know of identities."""
        self.keepalive.append(obj)
        self.fresh.add(id(obj))

    def changed_in_place(self, node, value: Optional[Value] = None) -> None:
        """Called after a modelled in-place change of `value` succeeded."""
        if isinstance(value, LiveValue) and id(value.obj) in self.fresh:
            return
        if not self.identities_known:
            raise Stop(node.lineno, "an in-place change, and recorded facts do not say which names share the object")

    def set_shadow(self, value: Value, facts: Value, node, frees: bool = True) -> None:
        """`value`, changed in place, is now what `facts` say. A kernel object changed in place lets
        go of what it held (a dropped column, a replaced one, removed rows), and freeing runs code
        when any of it has a finalizer; `frees=False` for a change that only adds."""
        if isinstance(value, LiveValue):
            if frees and may_run_code_when_freed(value.obj):
                raise Stop(node.lineno, "changing a frame in place, which may free an object that runs code when "
                                        "it is freed")
            self.keepalive.append(value.obj)
            self.shadow[id(value.obj)] = facts
            facts.stands_for = value.obj  # (the same object: what it holds beside the facts still counts)

    def _names_known(self, node: ast.AST) -> bool:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                try:
                    self.load(sub.id, sub)
                except (Crash, Stop):
                    return False
        return True

    # ---- expressions ------------------------------------------------------------------------
    def ev(self, node: ast.AST) -> Value:
        handler = getattr(self, "e_" + type(node).__name__, None)
        if handler is None:
            raise Stop(getattr(node, "lineno", None), f"`{_src(node)}`, which the checker does not model")
        value = handler(node)
        # However a live object was reached (a name, a list item, an attribute), a change this cell
        # made to it in place must show.
        return self.unshadow(value) if self.shadow else value

    def e_Constant(self, node):
        return LiveValue(node.value)

    def e_Name(self, node):
        return self.load(node.id, node)

    def e_NamedExpr(self, node):
        value = self.ev(node.value)
        # The walrus binds in the nearest scope that is not a comprehension: a class body it is
        # written in directly, else the module.
        target = node.target.id
        for i in range(len(self.scopes) - 1, -1, -1):
            if self.scope_kinds[i] == "class":
                self.scopes[i][target] = value
                return value
        if target not in self.bound:
            self._drops(target, node)
        self.bound[target] = value
        return value

    def e_Attribute(self, node):
        base = self.ev(node.value)
        with self.located(attribute_line(node, self.python_version), node):
            return rules.attributes.read(self, base, node.attr, node)

    def e_Subscript(self, node):
        base = self.ev(node.value)
        index = self._index(node.slice)
        return rules.getitem(self, base, index, node)

    def _index(self, sl: ast.AST) -> Value:
        if isinstance(sl, ast.Slice):
            parts = [self.ev(p) if p is not None else LiveValue(None) for p in (sl.lower, sl.upper, sl.step)]
            vals = [p.concrete() for p in parts]
            if all(is_simple_constant(v) and not isinstance(v, (str, bytes)) for v in vals):
                return LiveValue(slice(*vals))
            return FactValue("slice")
        if sys.version_info < (3, 9) and isinstance(sl, ast.Index):  # pragma: no cover
            return self.ev(sl.value)
        if isinstance(sl, ast.Tuple) and any(isinstance(e, ast.Slice) for e in sl.elts):
            parts = [self._index(e) for e in sl.elts]
            vals = [p.concrete() for p in parts]
            if all(v is not NOTHING for v in vals):
                return LiveValue(tuple(vals))
            return FactValue("tuple", items=parts)
        return self.ev(sl)

    def e_Tuple(self, node):
        return self._display(node, tuple)

    def e_List(self, node):
        return self._display(node, list)

    def e_Set(self, node):
        items = [self.ev(e) for e in node.elts]
        vals = [i.concrete() for i in items]
        if all(is_simple_constant(v) for v in vals):
            try:
                return _unordered_set(set(vals))
            except Exception:
                pass
        raise Stop(node.lineno, "a set of values the checker cannot hash")

    def _spread(self, exprs, node, where: str) -> List[Value]:
        """Evaluate `exprs` in order, expanding `*x` items whose elements are known."""
        values: List[Value] = []
        for e in exprs:
            if isinstance(e, ast.Starred):
                elems = rules.containers.elements(self.ev(e.value))
                if elems is None:
                    raise Stop(node.lineno, f"unpacking `{_src(e.value)}`{where}")
                values.extend(elems)
            else:
                values.append(self.ev(e))
        return values

    def _display(self, node, kind):
        items = self._spread(node.elts, node, "")
        vals = [i.concrete() for i in items]
        if all(v is not NOTHING for v in vals) and all(_owned(i) for i in items):
            return _mine(LiveValue(kind(vals)))
        return FactValue(kind.__name__, items=items, cls=kind)

    def e_Dict(self, node):
        keys: List[Any] = []
        values: List[Value] = []
        for k, v in zip(node.keys, node.values):
            if k is None:
                raise Stop(node.lineno, "a dict built with `**`")
            kv = self.ev(k)
            vv = self.ev(v)
            kc = kv.concrete()
            if not is_simple_constant(kc):
                raise Stop(node.lineno, "a dict key the checker cannot hash")
            keys.append(kc)
            values.append(vv)
        table = dict(zip(keys, values))
        if all(_owned(v) for v in table.values()):
            return _mine(LiveValue({k: v.concrete() for k, v in table.items()}))
        return FactValue("dict", keys=list(table.keys()), length=len(table), cls=dict)

    def e_JoinedStr(self, node):
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                v = self.ev(part.value)
                if part.format_spec is not None or not rules.safe_to_print(v):
                    raise Stop(node.lineno, "formatting a value in an f-string")
        return Opaque("str")

    def e_BinOp(self, node):
        left = self.ev(node.left)
        right = self.ev(node.right)
        return rules.operators.binop(self, left, right, node.op, node)

    def e_UnaryOp(self, node):
        operand = self.ev(node.operand)
        return rules.operators.unaryop(self, operand, node)

    def e_BoolOp(self, node):
        # Short-circuiting: continue only while each operand's truth is known.
        last: Optional[Value] = None
        for i, sub in enumerate(node.values):
            last = self.ev(sub)
            if i == len(node.values) - 1:
                break
            truth = rules.operators.truth(last)
            if truth is None:
                raise Stop(node.lineno, f"`{_src(node)}`, whose truth the checker cannot tell")
            if isinstance(node.op, ast.And) and not truth or isinstance(node.op, ast.Or) and truth:
                return last
        return last

    def e_Compare(self, node):
        left = self.ev(node.left)
        result: Optional[Value] = None
        for op, comp in zip(node.ops, node.comparators):
            right = self.ev(comp)
            result = rules.operators.compare(self, left, right, op, node)
            if len(node.ops) > 1:
                truth = rules.operators.truth(result)
                if truth is None:
                    raise Stop(node.lineno, f"`{_src(node)}`, a chained comparison")
                if not truth:
                    return result
            left = right
        return result

    def e_IfExp(self, node):
        test = self.ev(node.test)
        truth = rules.operators.truth(test)
        if truth is None:
            raise Stop(node.lineno, f"`{_src(node)}`, whose branch the checker cannot tell")
        return self.ev(node.body if truth else node.orelse)

    def e_Lambda(self, node):
        args = node.args
        for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
            self.ev(default)
        return UserFunction("<lambda>")

    def e_Call(self, node):
        func = self.ev(node.func)
        args = self._spread(node.args, node, " into a call")
        kwargs: Dict[str, Value] = {}
        for kw in node.keywords:
            if kw.arg is None:
                self.ev(kw.value)
                raise Stop(node.lineno, f"a call with `**{_src(kw.value)}`")
            kwargs[kw.arg] = self.ev(kw.value)
        if isinstance(func, UserFunction):
            raise Stop(node.lineno, f"a call to your function `{func.fname}`")
        if self.unit_imports is None:
            self.unit_imports = Imports(self.unit)
        with self.located(call_line(node, self.python_version, self.unit_imports), node):
            return rules.call(self, func, args, kwargs, node)

    def e_ListComp(self, node):
        return self._comprehension(node, [node.elt], list)

    def e_SetComp(self, node):
        return self._comprehension(node, [node.elt], set)

    def e_GeneratorExp(self, node):
        # A generator runs its body lazily, when consumed: only the first iterable is evaluated now.
        self.ev(node.generators[0].iter)
        raise Stop(node.lineno, "a generator expression")

    def e_DictComp(self, node):
        return self._comprehension(node, [node.key, node.value], dict)

    def _comprehension(self, node, parts, kind):
        gens = node.generators
        if any(g.is_async for g in gens):
            raise Stop(node.lineno, "an async comprehension")
        first = self.ev(gens[0].iter)
        results: List[List[Value]] = []
        budget = [MAX_ITERATIONS]
        self._push("comprehension", {})
        try:
            self._comp_level(node, gens, 0, first, parts, results, budget)
        finally:
            self._pop()
        if kind is list:
            items = [r[0] for r in results]
            vals = [i.concrete() for i in items]
            if all(is_simple_constant(v) for v in vals):
                return _mine(LiveValue(list(vals)))
            return FactValue("list", items=items, cls=list)
        if kind is set:
            vals = [r[0].concrete() for r in results]
            if all(is_simple_constant(v) for v in vals):
                return _unordered_set(set(vals))
            raise Stop(node.lineno, "a set comprehension with values the checker cannot hash")
        keys = [r[0].concrete() for r in results]
        if all(is_simple_constant(k) for k in keys):
            return FactValue("dict", keys=list(dict.fromkeys(keys)), cls=dict)
        raise Stop(node.lineno, "a dict comprehension with keys the checker cannot hash")

    def _comp_level(self, node, gens, level, iterable, parts, results, budget):
        gen = gens[level]
        self._order_known(iterable, node, "a comprehension")
        elems = rules.containers.elements(iterable)
        if elems is None:
            raise Stop(node.lineno, f"a comprehension over `{_src(gen.iter)}`, whose items the checker cannot list")
        for elem in elems:
            self.out_of_time(node)
            budget[0] -= 1
            if budget[0] < 0:
                raise Stop(node.lineno, "a comprehension too long to follow")
            self._comp_bind(gen.target, elem, node)
            keep = True
            for cond in gen.ifs:
                truth = rules.operators.truth(self.ev(cond))
                if truth is None:
                    raise Stop(node.lineno, f"the condition `{_src(cond)}` of a comprehension")
                if not truth:
                    keep = False
                    break
            if not keep:
                continue
            if level + 1 < len(gens):
                inner = self.ev(gens[level + 1].iter)
                self._comp_level(node, gens, level + 1, inner, parts, results, budget)
            else:
                results.append([self.ev(p) for p in parts])

    def _order_known(self, iterable: Value, node, what: str) -> None:
        """A set's order depends on the string hashes of the process it lives in: in the replay,
        the recording kernel's are not the checker's."""
        if not self.identities_known and type(iterable.concrete()) in (set, frozenset):
            raise Stop(node.lineno, f"{what} over a set, whose order in the recorded kernel is unknown")

    def _comp_bind(self, target, value, node):
        if isinstance(target, ast.Name):
            self.scopes[-1][target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            parts = rules.containers.unpack(self, value, target, node)
            for sub, part in zip(target.elts, parts):
                self._comp_bind(sub.value if isinstance(sub, ast.Starred) else sub, part, node)
        else:
            raise Stop(node.lineno, f"a comprehension target `{_src(target)}`")

    def e_Starred(self, node):
        raise Stop(node.lineno, "a starred expression")

    def e_Await(self, node):
        self.ev(node.value)
        raise Stop(node.lineno, "an await")


def _import_reads(module: types.ModuleType, node, from_import: bool = False) -> types.ModuleType:
    """What an import statement reads of a loaded module before handing it over: its `__spec__`'s
    `_initializing` (whether another thread is importing it) and, for `from m import ...`, its
    `__path__` (whether it is a package). Held in the module's dictionary, as plain values, they run
    nothing; a missing one is asked of the module's own `__getattr__` (PEP 562: a notebook's module
    answering `__path__` with KeyError makes `from m import f` raise), and a `__spec__` object of the
    notebook's answers with its code."""
    d = checked(module.__dict__)
    wanted = ("__spec__", "__path__") if from_import else ("__spec__",)
    if "__getattr__" in d and any(name not in d for name in wanted):
        raise Stop(node.lineno, "an import that asks a module's own `__getattr__`")
    spec = d.get("__spec__")
    if spec is not None:
        if type(spec) is not ModuleSpec or lookup_static(ModuleSpec, "__getattr__") is not None \
                or lookup_static(ModuleSpec, "_initializing") is not None:
            raise Stop(node.lineno, "an import of a module whose `__spec__` is not a plain module spec")
        state = instance_dict(spec, {})
        if type(state) is not dict or type(state.get("_initializing", False)) is not bool:
            raise Stop(node.lineno, "an import of a module whose `__spec__` is not a plain module spec")
    return module


# `__annotations__` once an annotation of this cell stored into it: a plain dict whose keys the
# checker does not follow.
_ANNOTATIONS_STORED = Opaque("dict")


def _module_level_nodes(body: List[ast.stmt]):
    """The statements run in the module's own scope: not inside a function, lambda or class."""
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(n for n in ast.iter_child_nodes(node) if isinstance(n, ast.stmt))


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and type(stmt.value.value) is str


def _private(name: Any) -> bool:
    return type(name) is str and name.startswith("__") and not name.endswith("__") and "." not in name


def _mangled_name(node: ast.ClassDef) -> Optional[str]:
    """A name in the class that Python mangles (`__x` is `_A__x` there): as a variable, an attribute,
    a keyword, a parameter, an imported or defined name."""
    for sub in ast.walk(node):
        for name in (getattr(sub, "id", None), getattr(sub, "attr", None), getattr(sub, "arg", None),
                     getattr(sub, "asname", None), getattr(sub, "name", None) if sub is not node else None):
            if _private(name):
                return name
        if isinstance(sub, (ast.Global, ast.Nonlocal)) and any(map(_private, sub.names)):
            return next(filter(_private, sub.names))
    return None


def _inert_in_class_body(name: str, value: Any) -> bool:
    """Whether `type()`, creating the class once its body has run, leaves `name = value` alone: it
    acts on names of its own (`__slots__`, `__qualname__`, `__classcell__`, ... may raise) and calls
    the `__set_name__` of every value whose class has one (the notebook's code, or a library's that
    raises, such as one `functools.cached_property` under two names)."""
    if name.startswith("__") and name.endswith("__") and name not in ("__doc__", "__module__"):
        return False
    if isinstance(value, UserFunction):
        return True  # a function, lambda or class the cell defines: `function` and `type` have no hook
    c = value.concrete() if isinstance(value, Value) else NOTHING
    cls = type(c) if c is not NOTHING else getattr(value.facts, "cls", None) if isinstance(value, Value) else None
    return cls is not None and lookup_static(cls, "__set_name__", NOTHING) is NOTHING


def _unordered_set(built: set) -> Value:
    """A set the cell builds: its size is known, not the order it iterates in. That order follows
    how CPython built its table (a display of constants is compiled to a frozenset copied into a
    new set, whose table is sized otherwise than `set(items)`'s): `a, *b = {'hello world', 'a', 'ab',
    'b', 'x1'}` gives `a` another string than the checker's own set would."""
    return FactValue("set", length=len(built), cls=set)


def _mine(v: LiveValue) -> LiveValue:
    v.owned = True
    return v


def _owned(v: Value) -> bool:
    """Plain data the cell itself built (never a kernel object, which the checker must not hold
    inside a container it might later treat as its own)."""
    c = v.concrete()
    return c is not NOTHING and is_simple_constant(c) or (getattr(v, "owned", False) and is_plain_data(c))


def builtin_names(namespace: Any) -> Optional[Dict[str, Any]]:
    """The builtins a cell sees: the builtins module's dict when the namespace's `__builtins__` is
    that module (or absent: `exec` puts it there); None for anything else, which the checker
    does not read (a dict or module of the user's may answer differently)."""
    try:
        if type(namespace) is not dict:
            return None
        b = namespace.get("__builtins__", _builtins)
    except Exception:
        return None
    if b is _builtins:
        return notebook_builtins()
    return None


def real_builtins() -> Dict[str, Any]:
    """The genuine builtins of this interpreter (for recorded facts, where no namespace says more);
    `__debug__` is left out, since the recording kernel's `-O` flag is unknown."""
    names = _builtins.__dict__
    # (Python's own aliases, `IOError` and `EnvironmentError`, are `OSError` under another name)
    return {k: v for k, v in names.items() if k != "__debug__" and
            (genuine_builtin(k, v) or k in _ALIASES and names.get(_ALIASES[k]) is v and genuine_builtin(_ALIASES[k], v))}


_ALIASES = {"IOError": "OSError", "EnvironmentError": "OSError"}


__all__ = ["Interpreter", "BoundMethod", "UserFunction", "builtin_names", "real_builtins", "DELETED",
           "getattr_static", "is_estimator_class"]
