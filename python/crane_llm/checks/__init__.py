"""The built-in checks: crashes that are certain from the cell and the kernel state, found without a model.

    read_cell(source, namespace)       -> ReadCell  (the cell as the shell compiles it, parsed once)
    run_checks(source, namespace, read=None)
                                       -> Outcome   (live kernel objects; what the kernel calls)
    run_checks_on_facts(source, facts, names_complete=False, maybe_defined=())
                                       -> Outcome   (recorded runtime information; the benchmark)
    parse_runinfo(text)                -> (facts, target cell) of a JunoBench runinfo file
    bound_names.names_bound(source)    -> every name a cell may bind (for `maybe_defined`)

`Outcome.crash` is a CertainCrash or None, `Outcome.stopped_at` a CheckStop or None; both have
`.to_json()` matching libs/core's wire schema. A check never executes the cell and never declares it
safe: no crash means only that nothing was certain.

Layout: interpreter.py reads the cell; abstract_values.py holds the questions rules ask; live_adapter.py answers
them from kernel objects, replay.py from recorded facts; rules/ holds one module per library
behaviour (attributes, frames, containers, arrays, estimators, operators).
"""

from __future__ import annotations

import __future__
import ast
import builtins
import os
import sys
import types
import warnings
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Optional, Sequence, Set, Tuple

from .. import interpreter_functions as _f
from .. import stdlib_untouched
from ..deadline import Deadline
from .. import audit_sentinel
from . import recursion_room, signal_handlers, threads, tracing
from .threads import notebook_thread
from .finalizers import notebook_finalizer_exists, shell_rebinding_frees_code
from .signal_handlers import notebook_signal_handler
from .abc_hooks import notebook_abc_hook
from .interpreter import DELETED, MAYBE_BOUND, Interpreter, builtin_names, real_builtins
from .live_adapter import LiveValue
from .outcome import CertainCrash, CheckStop, Crash, Outcome, Stop
from .provenance import builtins_untouched, new_audit
from .recorded_kernel import RecordedKernel, read_executed
from .replay import ReplayValue, fact_value, literal_value, parse_runinfo
from .shell_source import Prepared, TransformTooLong, prepare_live, prepare_recorded, running_ipython
from .static_reads import loaded_module, HostileKeys, checked, new_epoch, one_check, plain_keys
from .suggest import closest, correct, hint_for
from .abstract_values import Opaque

# From now on a notebook's `sys.addaudithook` is seen (a hook added earlier is not: that is the limit).
audit_sentinel.install()

_IPYTHON_NAMES = {"get_ipython", "display", "In", "Out", "exit", "quit", "_", "__", "___", "_i", "_ii", "_iii",
                  "_ih", "_oh", "_dh"}

# Builtins of some Python 3 version or platform other than this one (`WindowsError` is Windows'),
# and IPython's numbered history names (`_5`, `_i5`, `__`): a recorded kernel may have had them,
# so their absence here proves nothing.
_OTHER_BUILTINS = {"aiter", "anext", "EncodingWarning", "BaseExceptionGroup", "ExceptionGroup",
                   "PythonFinalizationError", "WindowsError", "dreload", "help", "copyright", "credits", "license"}


def _input_history(name: str) -> bool:
    """IPython's input history, which run_cell updates before the cell's first statement when it
    stores history (as a kernel does for every cell): `In` and `_ih` get the cell appended, `_i`,
    `_ii` and `_iii` shift, `_i<N>` names the cell itself. The check reads them before that, so what
    they hold is unknown (`In[2]` runs fine in cell 2, though `In` holds two entries at check time)."""
    return name in ("In", "_ih", "_i", "_ii", "_iii") or (name.startswith("_i") and name[2:].isdigit())


def _never_claimed(name: str) -> bool:
    return name.startswith("_") or name in _OTHER_BUILTINS


def bound_so_far(interp: Interpreter):
    """The names the cell had bound when the reading stopped (what Python itself could suggest there:
    a name the cell binds only further down is not one)."""
    return [name for name, value in interp.bound.items() if value is not DELETED]


def _name_hint(outcome: Outcome, *pools) -> Outcome:
    """A NameError claim names the closest defined name, as Python 3.12's own message does."""
    crash = outcome.crash
    if crash is None or crash.exception != "NameError" or not crash.variables:
        return outcome
    wrong = crash.variables[0]
    # A pool may be a function giving it: the cell's own names are read only when a hint is needed.
    pools = tuple(pool() if callable(pool) else pool for pool in pools)
    candidates = [n for pool in pools for n in list(pool)[:5000] if type(n) is str and not n.startswith("_")]
    found = closest(wrong, candidates)
    if found is not None and crash.message.endswith("."):
        crash.message += hint_for(found)
        correct(crash, wrong, found)
    return outcome


def _note_dropped_row(values: Mapping[str, Any], dropped: Optional[Tuple[str, Any]]) -> None:
    """The frame the last executed cell dropped a row from lacks that row now (recorded_kernel.py)."""
    if dropped is None:
        return
    name, label = dropped
    value = values.get(name)
    facts = value.frame() if value is not None and value.kind() == "frame" else None
    if facts is not None:
        facts.absent_rows.append((label, "the last executed cell dropped it already"))


def _note_unnamed_index(values: Mapping[str, Any], names: Iterable[str]) -> None:
    """The frames read from CSV whose row index no executed cell named (recorded_kernel.py)."""
    for name in names:
        value = values.get(name)
        facts = value.frame() if isinstance(value, ReplayValue) and value.kind() == "frame" else None
        if facts is not None:
            value.facts = replace(value.facts, frame=replace(facts, unnamed_index=True))


def _note_read_from_csv(values: Mapping[str, Any], names: Iterable[str]) -> None:
    """The frames read from CSV that no executed cell touched since (recorded_kernel.py): their
    facts as recorded, which a change the target cell makes replaces (rules/value_counts.py)."""
    for name in names:
        value = values.get(name)
        if isinstance(value, ReplayValue) and value.kind() == "frame" and value.frame() is not None:
            value.read_from_csv = value.frame()


def imported_value(target) -> Optional[Any]:
    """The installed module or object an executed `import` bound, when this process has the module.
    As Python binds it: `import a.b as m` and `from a import b` read `b` from `a` first, and take
    the module `a.b` only when `a` holds no such name."""
    module_name, attr = target
    if attr is None and "." in module_name:
        parent, _, attr = module_name.rpartition(".")
        found = imported_value((parent, attr))
        return found if found is not None else (Opaque("module") if loaded_module(module_name) is None else None)
    module = loaded_module(module_name)
    if type(module) is not types.ModuleType:
        return Opaque("module") if attr is None else None
    if attr is None:
        return LiveValue(module)
    d = checked(module.__dict__)
    if attr in d:
        return LiveValue(d[attr])
    if "__getattr__" in d:
        return None  # (the module's own `__getattr__` answers first)
    sub = loaded_module(f"{module_name}.{attr}")
    return LiveValue(sub) if type(sub) is types.ModuleType else None


def _surely_imported(kernel: RecordedKernel, facts: Mapping[str, Any]) -> Set[str]:
    """The modules the recorded kernel surely loaded: those of an import whose name the facts hold
    (an import that failed, or never ran because its cell raised first, bound nothing)."""
    surely = set()
    for name, (module, _) in kernel.aliases.items():
        if name in facts:
            parts = module.split(".")
            surely.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return surely


__all__ = ["read_cell", "ReadCell", "run_checks", "run_checks_on_facts", "parse_runinfo", "Outcome", "CertainCrash", "CheckStop"]


_COMPILE_WARNS = ("compiling this cell warns (`x is 5`, an invalid escape in a string, ...): the notebook's "
                  "warning handlers see that before the first line runs, and may change what it meets")


def _read_quietly(prepare):
    """(prepared, early outcome, tree, late error): the cell prepared as the shell will compile it,
    and compiled, with every warning kept from the notebook's handlers (which may be its own code:
    a `logging.captureWarnings` handler, a `showwarning`). The real run shows such a warning to
    them before the cell's first line, so a cell that warns is not judged."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        prepared, early = _prepare(prepare)
        tree = late = None
        if early is None:
            tree, early, late = _syntax(prepared)
    if caught:
        return prepared, Outcome(stopped_at=CheckStop(None, _COMPILE_WARNS)), None, None
    return prepared, early, tree, late


def _syntax(prepared: Prepared):
    """Parse what the shell will compile, with its flags: (tree, early outcome, late error).

    IPython parses the whole cell first (a SyntaxError there is certain before anything runs), then
    compiles and runs one top-level statement at a time, each as its own module (so a future
    import may come anywhere, and the flags it sets hold for the statements after it). A statement
    that does not compile raises only once the statements before it have run: `late` is
    (its index, the SyntaxError claim), judged after those statements."""
    import ast

    tree = prepared.tree
    try:
        if tree is None:
            tree = compile(prepared.code, "<cell>", "exec", flags=prepared.flags | ast.PyCF_ONLY_AST,
                           dont_inherit=True)
    except SyntaxError as exc:
        shells = _as_the_shell_parses(prepared, exc)
        if shells is None:
            return None, Outcome(stopped_at=CheckStop(None, "the cell parses with the shell's own flags only")), None
        return None, _unknown_flags_or(prepared, _syntax_crash(shells)), None
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
        return None, Outcome(stopped_at=CheckStop(None, f"the cell could not be compiled ({type(exc).__name__})")), None
    flags = prepared.flags
    awaits = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT if prepared.top_level_await else 0
    try:
        # The whole cell compiling means every statement compiles alone too (a statement alone only
        # loses the context that can make it an error); only on failure is each one tried.
        compile(tree, "<cell>", "exec", flags=flags | awaits, dont_inherit=True)
        return tree, None, None
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        pass
    for index, node in enumerate(tree.body):
        try:
            # Top-level await is allowed while the shell's autoawait is on: IPython runs such cells.
            compile(ast.Module([node], type_ignores=[]), "<cell>", "exec", flags=flags | awaits, dont_inherit=True)
        except SyntaxError as exc:
            return tree, None, (index, _unknown_flags_or(prepared, _syntax_crash(exc)))
        except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
            return tree, None, (index, Outcome(stopped_at=CheckStop(
                getattr(node, "lineno", None), f"a statement that could not be compiled ({type(exc).__name__})")))
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                feature = getattr(__future__, alias.name, None)
                flags |= getattr(feature, "compiler_flag", 0)
    return tree, None, None


def _as_the_shell_parses(prepared: Prepared, exc: SyntaxError) -> Optional[SyntaxError]:
    """The error the shell's own parse gives: with codeop's flags an unfinished block at the end
    (`for x in y:`) is SyntaxError('incomplete input'), not the IndentationError of a plain parse."""
    if not prepared.parse_flags:
        return exc
    try:
        compile(prepared.code, "<cell>", "exec", flags=prepared.flags | prepared.parse_flags | 0x400, dont_inherit=True)
    except SyntaxError as shells:
        return shells
    except Exception:
        return None
    return None


def _unknown_flags_or(prepared: Prepared, outcome: Outcome) -> Outcome:
    if prepared.flags_known:
        return outcome
    # A future import of an earlier cell may make this valid (`<>` under barry_as_FLUFL).
    return Outcome(stopped_at=CheckStop(None, "the cell does not parse without the kernel's compile flags, "
                                              "which the recorded facts do not give"))


def _prepare(make) -> Tuple[Optional[Prepared], Optional[Outcome]]:
    """Run a `prepare_*` function: IPython's transformer may itself raise SyntaxError (a certain
    crash: the shell raises it too) or fail (then the cell is left to the model)."""
    try:
        prepared = make()
    except SyntaxError as exc:
        return None, _syntax_crash(exc)
    except TransformTooLong as exc:
        return None, Outcome(stopped_at=CheckStop(None, str(exc)))
    except Exception as exc:
        return None, Outcome(stopped_at=CheckStop(None, f"IPython could not transform the cell ({type(exc).__name__})"))
    if prepared.rewritten:
        return None, Outcome(stopped_at=CheckStop(None, prepared.rewritten))
    return prepared, None


def _syntax_crash(exc: SyntaxError) -> Outcome:
    # (Python 3.13's `_IncompleteInputError` is the SyntaxError users see: its first public class)
    name = next((k.__name__ for k in type(exc).__mro__ if not k.__name__.startswith("_")), type(exc).__name__)
    line = exc.lineno
    msg = exc.msg or "invalid syntax"
    where = f" at line {line}" if line else ""
    return Outcome(crash=CertainCrash(name, line, exc.offset, f"The cell cannot be parsed{where}: {msg}.",
                                      "syntax", []))


def _interpret(tree, interp: Interpreter, late=None) -> Outcome:
    if _awaits_at_top_level(tree):
        return Outcome(stopped_at=CheckStop(None, _RUNS_ASYNC))
    body = tree.body if late is None else tree.body[:late[0]]
    try:
        interp.annotations_made_early(tree.body)
        interp.run(body)
    except Crash as c:
        return Outcome(crash=c.crash)
    except Stop as s:
        return Outcome(stopped_at=s.stop)
    except RecursionError:
        return Outcome(stopped_at=CheckStop(None, "the cell is nested too deeply for the checker"))
    return Outcome() if late is None else late[1]


# IPython runs a cell that awaits at top level as a coroutine on an event loop, and the loop first
# runs what is waiting in it: callbacks and tasks of the notebook's, before the cell's first line.
_RUNS_ASYNC = ("the cell awaits at top level: IPython runs it on an event loop, which may first run callbacks "
               "and tasks the notebook left waiting there")
_ASYNC_NODES = (ast.Await, ast.AsyncFor, ast.AsyncWith)
_OWN_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _awaits_at_top_level(tree: ast.AST) -> bool:
    """An `await`, `async for` / `async with` or async comprehension outside any function's body
    (a function's decorators, defaults and annotations are evaluated where it is defined)."""
    todo = list(ast.iter_child_nodes(tree))
    while todo:
        node = todo.pop()
        if isinstance(node, _ASYNC_NODES) or (isinstance(node, ast.comprehension) and node.is_async):
            return True
        if isinstance(node, _OWN_SCOPES):
            a = node.args
            todo.extend([*a.defaults, *(d for d in a.kw_defaults if d is not None),
                         *(x.annotation for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                           if x is not None and x.annotation is not None)])
            if not isinstance(node, ast.Lambda):
                todo.extend([*node.decorator_list, *([node.returns] if node.returns is not None else [])])
        else:
            todo.extend(ast.iter_child_nodes(node))
    return False


_GARBAGE_MAY_RUN_CODE = ("a class of the notebook's runs code when its objects are freed (`__del__`, "
                         "`weakref.finalize`): objects of it already unreachable are freed, and that code run, at "
                         "whatever point of the cell the garbage collector starts")
_HISTORY_FREES_CODE = ("a name IPython rebinds as it runs the cell (`_i`, `_ii`, `_iii`, `_i<N>`, `_exit_code`) holds "
                       "an object that may run code when it is freed")
_BUILTIN_REPLACED = "a builtin was replaced, and the library code the checker consults would call it"
# A shell's `user_ns` of a dict subclass: the cell's names are read through its own `__getitem__`
# (and the checker's `in` would run its `__contains__`).
_NAMESPACE_OF_ITS_OWN = "the namespace is not a plain dict: its own methods answer the cell's names"


@dataclass(eq=False)
class ReadCell:
    """A cell prepared and parsed once per check: `tree` (None when the checks will not walk it),
    `early`, the outcome that preparing and parsing already decide (a SyntaxError is a certain crash,
    a shell rewrite the checker cannot follow is a stop), or None, and `late` (see `_syntax`). The
    kernel reply reads the cell's used names from the same tree the checks walk."""

    tree: Any
    early: Optional[Outcome]
    late: Any
    prepared: Optional[Prepared]


def read_cell(source: str, namespace: Mapping[str, Any], shell: Any = None) -> ReadCell:
    """The cell as `shell` (found by itself when `namespace` is the running shell's `user_ns`)
    will compile it, parsed once."""
    new_epoch()  # every dictionary read while the cell is prepared is looked at afresh
    if not builtins_untouched():  # first: preparing the cell imports IPython's transformer by name
        return ReadCell(None, Outcome(stopped_at=CheckStop(None, _BUILTIN_REPLACED)), None, None)
    if not _f.modules_untouched():
        return ReadCell(None, Outcome(stopped_at=CheckStop(None, _f.MODULES_REBOUND)), None, None)
    changed = stdlib_untouched.changed()
    if changed:
        return ReadCell(None, Outcome(stopped_at=CheckStop(None, stdlib_untouched.reason(changed))), None, None)
    shell = shell if shell is not None else _running_shell(namespace)
    if shell is None and type(namespace) is dict and any(type(k) is str and k == "_ih" for k in list(namespace)):
        # (IPython's own namespace, whose shell cannot be found: how it compiles the cell is unknown)
        return ReadCell(None, Outcome(stopped_at=CheckStop(None, "the IPython shell of this namespace cannot be found")),
                        None, None)
    prepared, early, tree, late = _read_quietly(lambda: prepare_live(source, shell, namespace))
    return ReadCell(tree, early, late, prepared)


def run_checks(source: str, namespace: Mapping[str, Any], deadline: Any = None, shell: Any = None,
               read: Optional[ReadCell] = None) -> Outcome:
    """Check `source` (a raw notebook cell) against the live `namespace`; never runs the cell.

    `deadline` (a crane_llm.deadline.Deadline) is the check's time budget: the reading stops at
    the first statement reached after it has passed. `shell` is the IPython shell that will run
    the cell (found by itself when `namespace` is the running shell's `user_ns`): its input
    transformers and compile flags decide what runs. `read`: the cell already read by `read_cell`
    (the kernel reply reads it once for the checks and the used names).
    """
    # The checker makes no reference cycles; a full collection over a big kernel heap would cost
    # more than the whole check, so collection waits until it is done (the switch is restored).
    if not _f.GENUINE:  # the time budget rests on the interpreter's own clock and alarm
        return Outcome(stopped_at=CheckStop(None, _f.REPLACED))
    table = stdlib_untouched.tables_replaced()
    if table:
        return Outcome(stopped_at=CheckStop(None, stdlib_untouched.reason(table)))
    if audit_sentinel.notebook_hook_added():  # (the hook would run on the check's own steps, and the cell's)
        return Outcome(stopped_at=CheckStop(None, audit_sentinel.STANDS_ASIDE))
    if not builtins_untouched():  # first: even IPython's get_ipython() imports by name
        return Outcome(stopped_at=CheckStop(None, _BUILTIN_REPLACED))
    if not _f.modules_untouched():
        return Outcome(stopped_at=CheckStop(None, _f.MODULES_REBOUND))
    if tracing.installed():
        return Outcome(stopped_at=CheckStop(None, tracing.TRACED))
    if recursion_room.lowered():
        return Outcome(stopped_at=CheckStop(None, recursion_room.LOWERED))
    if notebook_thread():
        return Outcome(stopped_at=CheckStop(None, threads.RUNNING))
    if notebook_signal_handler():
        return Outcome(stopped_at=CheckStop(None, signal_handlers.HANDLED))
    if read is None:
        new_epoch()
    hooked = notebook_abc_hook()
    if hooked:
        return Outcome(stopped_at=CheckStop(None, hooked))
    if type(namespace) is not dict:
        return Outcome(stopped_at=CheckStop(None, _NAMESPACE_OF_ITS_OWN))
    if not plain_keys(namespace):
        return Outcome(stopped_at=HostileKeys().stop)  # (`globals()[K('x')] = 1`: any name lookup may run it)
    if shell_rebinding_frees_code(namespace):
        return Outcome(stopped_at=CheckStop(None, _HISTORY_FREES_CODE))
    was_enabled = _f.gc_isenabled()
    _f.gc_disable()
    try:
        read = read if read is not None else read_cell(source, namespace, shell)
        with one_check():
            return _run_live(source, namespace, deadline, read)
    except Stop as s:  # a dictionary found unreadable while the cell was prepared (HostileKeys)
        return Outcome(stopped_at=s.stop)
    finally:
        if was_enabled:
            _f.gc_enable()


def _running_shell(namespace: Any) -> Any:
    """The running IPython shell when `namespace` is its user namespace, else None."""
    shell = running_ipython()
    if shell is None:
        return None
    try:
        d = object.__getattribute__(shell, "__dict__")
        ns = d.get("_user_ns", d.get("user_ns"))
    except Exception:
        return None
    return shell if ns is namespace else None


def _run_live(source: str, namespace: Mapping[str, Any], deadline: Any, read: ReadCell) -> Outcome:
    if read.early is not None:
        return read.early
    tree, late, prepared = read.tree, read.late, read.prepared

    def lookup(name: str):
        if _input_history(name):
            # Only while the namespace holds them: a notebook may delete them, a shell that does not
            # store history binds none, and `_i<N>` of a cell to come is bound only as that cell
            # starts. Absent, whether the cell will find them is not known here.
            return Opaque() if name in namespace else MAYBE_BOUND
        try:
            if name in namespace:
                return LiveValue(namespace[name], name)
        except Exception:
            return None
        return None

    try:
        interp = Interpreter(lookup, builtin_names(namespace), deadline=deadline, optimize=sys.flags.optimize,
                             annotations_deferred=prepared.annotations_deferred,
                             displays_values=prepared.displays_values)
        outcome = _interpret(tree, interp, late)
        if outcome.crash is not None and notebook_finalizer_exists():
            # (looked for only before a claim: it walks every class alive)
            return Outcome(stopped_at=CheckStop(None, _GARBAGE_MAY_RUN_CODE))
        if type(namespace) is dict:  # (a real dict: listing its keys runs no user code)
            return _name_hint(outcome, lambda: bound_so_far(interp), namespace, interp.builtin_names)
        return outcome
    except Exception as exc:  # a checker bug must never become a claim
        if os.environ.get("CRANE_LLM_CHECKS_DEBUG"):
            raise
        return Outcome(stopped_at=CheckStop(None, f"the checker failed internally ({type(exc).__name__})"))


# The replay runs offline (the benchmark), so its budget is looser than a kernel check's; it only
# bounds readings that multiply (nested loops), which the live check's deadline bounds too.
REPLAY_SECONDS = 10.0


def run_checks_on_facts(source: str, facts: Mapping[str, Any], names_complete: bool = False,
                        maybe_defined: Iterable[str] = (), executed: Optional[Sequence[str]] = None) -> Outcome:
    """Check `source` against recorded facts, one dict per variable (the paper's runtime information).

    Anything the facts do not say is unknown. A name the facts lack ends the reading, unless
    `names_complete` says the facts list every name that existed: then it is undefined (NameError),
    except the names in `maybe_defined` (for instance every name the executed cells assign, since
    a recorder may have missed one). The recording kernel's flags (`python -O`, future imports) and
    its shell settings are unknown, so whatever depends on them is left to the model.

    `executed`, the sources of every cell the kernel ran before, in order, adds what they show
    (see recorded_kernel.py): the names are complete when no cell can bind one dynamically, every
    name a cell binds is possibly defined, names bound only by one import are that module or object
    of the installed library, and modules they imported can be imported again.
    """
    if not builtins_untouched():  # (the replay's own process: its modules look builtins up by name too)
        return Outcome(stopped_at=CheckStop(None, _BUILTIN_REPLACED))
    try:
        with one_check():
            return _run_on_facts(source, facts, names_complete, maybe_defined, executed)
    except Stop as s:  # a library dictionary found unreadable (HostileKeys) outside the interpreter
        return Outcome(stopped_at=s.stop)


def _run_on_facts(source: str, facts: Mapping[str, Any], names_complete: bool, maybe_defined: Iterable[str],
                  executed: Optional[Sequence[str]]) -> Outcome:
    new_audit()  # the installed classes are audited afresh (see replay.fact_value)
    kernel = read_executed(executed) if executed is not None else None
    # What the executed cells may have set on objects: readable only when none writes out of sight.
    written = kernel.written if kernel is not None and kernel.dynamic is None else None
    set_attrs = written if kernel is not None else frozenset()
    tensors = kernel is not None and kernel.tensors_as_recorded
    dict_keys = kernel is not None and kernel.keys_as_recorded
    values = {name: fact_value(name, f, written, set_attrs, tensors, dict_keys) for name, f in facts.items()}
    unsure = set(maybe_defined)
    if kernel is not None and kernel.patches is not None:
        return Outcome(stopped_at=CheckStop(None, kernel.patches))
    if kernel is not None:
        unsure |= kernel.names
        # (a cell that binds names out of sight may have put them in the builtins, which no facts list)
        names_complete = kernel.dynamic is None
        # (only the imports that surely ran: a name the facts do not hold stays maybe bound)
        kernel = replace(kernel, modules=_surely_imported(kernel, facts))
        for name, target in kernel.aliases.items():
            found = imported_value(target) if name in facts else None
            if found is not None:
                values[name] = found.named(name)
        for name, literal in kernel.literals.items():
            found = literal_value(name, literal, facts.get(name))
            if found is not None:
                values[name] = found
        if not kernel.frame_state_plain:
            # (a frame's `attrs` are deep-copied by most of its methods, and its flags may refuse
            # duplicate labels: neither is recorded)
            values = {name: Opaque(value.kind()) if isinstance(value, ReplayValue) and
                      value.kind() in ("frame", "series") else value for name, value in values.items()}
        for value in values.values():
            if isinstance(value, ReplayValue):
                value.plain_column_index = kernel.plain_column_index
                value.frame_attributes_as_shipped = kernel.frame_attributes_as_shipped
                value.type_as_named = kernel.dynamic is None and kernel.written is not None
                value.dict_as_recorded = kernel.keys_as_recorded
        _note_dropped_row(values, kernel.dropped_row)
        _note_unnamed_index(values, kernel.unnamed_index)
        _note_read_from_csv(values, kernel.csv_frames)

    def lookup(name: str):
        found = values.get(name)
        if found is None and name.startswith("__") and name.endswith("__"):
            return None  # Python's own names (`__annotations__`, ...) may be missing: the reading stops
        if found is None and name in _IPYTHON_NAMES:
            return Opaque()  # what IPython puts in every kernel's namespace
        if found is None and (name in unsure or _never_claimed(name)):
            # (an executed cell binds it, but the facts do not have it: it may be bound in a function,
            # under a branch, before a `del`, in a cell that raised first, or not at all)
            return MAYBE_BOUND
        return found

    def known(name: str) -> bool:
        found = lookup(name)
        return (found is not None and found is not MAYBE_BOUND) or name in builtins.__dict__

    prepared, early, tree, late = _read_quietly(lambda: prepare_recorded(source, known))
    if early is not None:
        return early
    try:
        interp = Interpreter(lookup, real_builtins(), names_complete=names_complete, identities_known=False,
                             deadline=Deadline(REPLAY_SECONDS),
                             recorded=kernel, optimize=None, annotations_deferred=prepared.annotations_deferred,
                             libraries_versioned_here=False, python_version=None)
        outcome = _interpret(tree, interp, late)
        if outcome.crash is not None and kernel is not None and kernel.garbage_may_run_code:
            return Outcome(stopped_at=CheckStop(None, _GARBAGE_MAY_RUN_CODE))
        return _name_hint(outcome, lambda: bound_so_far(interp), values, unsure,
                          builtins.__dict__)
    except Exception as exc:
        if os.environ.get("CRANE_LLM_CHECKS_DEBUG"):
            raise
        return Outcome(stopped_at=CheckStop(None, f"the checker failed internally ({type(exc).__name__})"))
