"""The built-in checks: crashes that are certain from the cell and the kernel state, found without a model.

    parse_for_checks(source)           -> ParsedCell (the tree, or the crash/stop that parsing is)
    run_checks(source, namespace, parsed=None)
                                       -> Outcome   (live kernel objects; what the kernel calls)
    run_checks_on_facts(source, facts, names_complete=False, maybe_defined=())
                                       -> Outcome   (recorded runtime information; the benchmark)
    parse_runinfo(text)                -> (facts, target cell) of a JunoBench runinfo file
    bound_names.names_bound(source)    -> every name a cell may bind (for `maybe_defined`)

`Outcome.crash` is a CertainCrash or None, `Outcome.stopped_at` a CheckStop or None; both have
`.to_json()` matching libs/core's wire schema. A check never executes the cell and never declares it
safe: no crash means only that nothing was certain.

Layout: interpreter.py reads the cell; values.py holds the questions rules ask; live.py answers
them from kernel objects, replay.py from recorded facts; rules/ holds one module per library
behaviour (attributes, frames, containers, arrays, estimators, operators).
"""

from __future__ import annotations

import ast
import gc
import os
from typing import Any, Iterable, Mapping, Optional

from ..kernel.source import python_source
from .interpreter import Interpreter, builtin_names
from .live import LiveValue
from .outcome import CertainCrash, CheckStop, Crash, Outcome, Stop
from .replay import fact_value, parse_runinfo
from .values import Opaque

_IPYTHON_NAMES = {"get_ipython", "display", "In", "Out", "exit", "quit", "_", "__", "___", "_i", "_ii", "_iii",
                  "_ih", "_oh", "_dh"}

__all__ = ["parse_for_checks", "ParsedCell", "run_checks", "run_checks_on_facts", "parse_runinfo", "Outcome", "CertainCrash", "CheckStop"]


class ParsedCell:
    """A cell parsed once per check: `tree` (None when it does not parse) and `early`, the outcome
    parsing already decides (a SyntaxError is a certain crash), or None. The kernel reply reads the
    used names from the same tree the checks walk."""

    __slots__ = ("tree", "early")

    def __init__(self, tree: Optional[ast.Module], early: Optional[Outcome]):
        self.tree = tree
        self.early = early


def parse_for_checks(source: str) -> ParsedCell:
    """Parse as the kernel would; a SyntaxError is itself a certain crash."""
    try:
        # Plain Python is what IPython's transformer leaves unchanged (its rewrites all start from
        # syntax Python rejects: %magic, !cmd, obj?, prompts): parse it directly, which is faster.
        tree = ast.parse(source, filename="<cell>", mode="exec")
        code = source
    except (SyntaxError, ValueError):
        tree = None
    try:
        if tree is None:
            code = python_source(source)
    except SyntaxError as exc:
        return ParsedCell(tree, _syntax_crash(exc))
    except Exception as exc:  # IPython's transformer failed: leave the cell to the model
        return ParsedCell(None, Outcome(stopped_at=CheckStop(None, f"IPython could not transform the cell ({type(exc).__name__})")))
    try:
        if tree is None:
            tree = ast.parse(code, filename="<cell>", mode="exec")
        # Compiling finds what the parser lets through (`return` outside a function, ...);
        # top-level await is allowed because IPython runs such cells.
        compile(tree, "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError as exc:
        return ParsedCell(tree, _syntax_crash(exc))
    except (ValueError, RecursionError, MemoryError) as exc:
        return ParsedCell(tree, Outcome(stopped_at=CheckStop(None, f"the cell could not be compiled ({type(exc).__name__})")))
    return ParsedCell(tree, None)


def _syntax_crash(exc: SyntaxError) -> Outcome:
    name = type(exc).__name__
    line = exc.lineno
    msg = exc.msg or "invalid syntax"
    where = f" at line {line}" if line else ""
    return Outcome(crash=CertainCrash(name, line, exc.offset, f"The cell cannot be parsed{where}: {msg}.",
                                      "syntax", []))


def _interpret(tree, interp: Interpreter) -> Outcome:
    try:
        interp.run(tree.body)
    except Crash as c:
        return Outcome(crash=c.crash)
    except Stop as s:
        return Outcome(stopped_at=s.stop)
    except RecursionError:
        return Outcome(stopped_at=CheckStop(None, "the cell is nested too deeply for the checker"))
    return Outcome()


def run_checks(source: str, namespace: Mapping[str, Any], parsed: Optional[ParsedCell] = None) -> Outcome:
    """Check `source` (a raw notebook cell) against the live `namespace`; never runs the cell.
    `parsed`: the cell already parsed by `parse_for_checks` (the kernel reply parses it once)."""
    # The checker makes no reference cycles; a full collection over a big kernel heap would cost
    # more than the whole check, so collection waits until it is done (the switch is restored).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run_live(parsed if parsed is not None else parse_for_checks(source), namespace)
    finally:
        if was_enabled:
            gc.enable()


def _run_live(parsed: ParsedCell, namespace: Mapping[str, Any]) -> Outcome:
    if parsed.early is not None:
        return parsed.early
    tree = parsed.tree

    def lookup(name: str):
        try:
            if name in namespace:
                return LiveValue(namespace[name], name)
        except Exception:
            return None
        return None

    try:
        return _interpret(tree, Interpreter(lookup, builtin_names(namespace)))
    except Exception as exc:  # a checker bug must never become a claim
        if os.environ.get("CRANE_LLM_CHECKS_DEBUG"):
            raise
        return Outcome(stopped_at=CheckStop(None, f"the checker failed internally ({type(exc).__name__})"))


def run_checks_on_facts(source: str, facts: Mapping[str, Any], names_complete: bool = False,
                        maybe_defined: Iterable[str] = ()) -> Outcome:
    """Check `source` against recorded facts, one dict per variable (the paper's runtime information).

    Anything the facts do not say is unknown. A name the facts lack ends the reading, unless
    `names_complete` says the facts list every name that existed: then it is undefined (NameError),
    except the names in `maybe_defined` (for instance every name the executed cells assign, since
    a recorder may have missed one).
    """
    parsed = parse_for_checks(source)
    if parsed.early is not None:
        return parsed.early
    tree = parsed.tree
    values = {name: fact_value(name, f) for name, f in facts.items()}
    unsure = set(maybe_defined)

    def lookup(name: str):
        found = values.get(name)
        if found is None and (name in _IPYTHON_NAMES or name in unsure):
            return Opaque()  # what IPython puts in every kernel's namespace and builtins
        return found

    import builtins

    try:
        return _interpret(tree, Interpreter(lookup, builtins.__dict__, names_complete=names_complete,
                                            identities_known=False))
    except Exception as exc:
        if os.environ.get("CRANE_LLM_CHECKS_DEBUG"):
            raise
        return Outcome(stopped_at=CheckStop(None, f"the checker failed internally ({type(exc).__name__})"))
