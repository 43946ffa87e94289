"""Operators on known values: arithmetic, comparisons and truth.

Builtin operators on plain constants (int, float, str, None, ...) run no user code, so they are
evaluated for real, with guards against huge results; the exception they raise (ZeroDivisionError,
TypeError, ...) is then certain. When only the exact builtin types are known, the same operator is
tried on small sample values of those types: for these types whether `+` raises TypeError depends
on the types alone. NumPy operands go to the array rules.
"""

from __future__ import annotations

import ast
import re
import operator
from typing import Any, Optional

from ..memory_room import room
from ..live_adapter import LiveValue, is_simple_constant
from ..outcome import CertainCrash, Crash, Stop
from ..abstract_values import NOTHING, FactValue, Opaque, Value
from . import arrays, tensors

BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
    ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitOr: operator.or_,
    ast.BitXor: operator.xor, ast.BitAnd: operator.and_, ast.MatMult: operator.matmul,
}
SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&",
    ast.MatMult: "@",
}
COMPARES = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}
# One small sample per exact builtin kind: whether an operator raises TypeError depends on types only.
SAMPLES = {"none": None, "bool": True, "int": 3, "float": 2.5, "complex": 1j, "str": "ab", "bytes": b"ab",
           "list": [1], "tuple": (1,), "dict": {1: 1}, "set": {1}}
NUMERIC = ("bool", "int", "float", "complex")


def _describe(v: Value) -> str:
    c = v.concrete()
    if c is None:
        return "None"
    if v.name:
        return f"`{v.name}` ({v.kind()})"
    if is_simple_constant(c) and _short(c):
        text = repr(c)
        return text if len(text) <= 30 else v.kind() or "value"
    return v.kind() or "value"


def _short(c: Any) -> bool:
    """A constant whose repr is cheap and cannot fail (an int past the digit limit raises)."""
    if type(c) in (tuple, frozenset):
        return len(c) <= 30 and all(_short(x) for x in c)
    return type(c) is not int or c.bit_length() <= 100


def _too_big(op: type, a: Any, b: Any) -> bool:
    """Operations whose result could be huge are not run, only typed. (A float power is one C call:
    it is run, and its OverflowError, `2.0 ** 10000`, is certain.)"""
    try:
        if any(type(x) is int and x.bit_length() > BIG_INT_BITS for x in (a, b)):
            return True  # (`v // d` of two million-bit ints is seconds of one C call the alarm cannot cut)
        if op is ast.Pow and type(a) in (int, bool) and type(b) in (int, bool):
            # (a negative exponent makes a float, in one C call: run, its OverflowError is certain)
            return abs(a) > 1 and b > 0 and (b > 64 or a.bit_length() * b > BIG_INT_BITS)
        if op is ast.LShift and isinstance(b, int):
            return b > 256
        if op is ast.Mod and type(a) in (str, bytes):
            # (a width, written or given by `*`: `'%*d' % (10 ** 9, 7)` makes a gigabyte of text)
            given = b if type(b) is tuple else (b,)
            return any(type(x) is int and abs(x) > 100000 for x in given) or \
                any(len(run) > 5 for run in re.findall(r"\d+", a if type(a) is str else a.decode("latin-1")))
        if op is ast.Add and isinstance(a, (str, bytes, tuple)) and isinstance(b, (str, bytes, tuple)):
            # (doubling in a followed loop, `x = x + x`, grows without bound one pass at a time)
            return len(a) + len(b) > 100000
        if op is ast.Mult:
            if isinstance(a, (str, bytes, tuple)) and isinstance(b, int):
                return len(a) * max(b, 0) > 100000
            if isinstance(b, (str, bytes, tuple)) and isinstance(a, int):
                return len(b) * max(a, 0) > 100000
            if isinstance(a, int) and isinstance(b, int):
                return a.bit_length() + b.bit_length() > 4096
    except Exception:
        return True
    return False


# Ints longer than this are not computed with: one operation on them may take seconds.
BIG_INT_BITS = 2 ** 16

# Items (characters, tuple slots, bytes of an int) a result not computed is still taken to fit in
# memory; beyond, making it may raise MemoryError (`'a' * 10 ** 13` does at once).
_FITS = 2 ** 27


def _succeeds_unrun(op: type, a: Any, b: Any) -> bool:
    """What is only typed, not run, is known to raise nothing but MemoryError (which `_may_not_fit`
    rules out): int arithmetic, a power or shift by a non-negative int, a sequence repeated or
    joined to one of its own type. `N ** 0.5`, `N ** -1`, `N << -1`, `N << 2.0` raise."""
    ints = type(a) in (int, bool) and type(b) in (int, bool)
    if op in (ast.Add, ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor):
        if ints:
            return True
        if op is ast.Add:
            return type(a) is type(b) and type(a) in (str, bytes, tuple)
        return op is ast.Mult and (type(a) in (str, bytes, tuple) and type(b) in (int, bool) or
                                   type(b) in (str, bytes, tuple) and type(a) in (int, bool))
    if op in (ast.Pow, ast.LShift, ast.RShift):
        return ints and b >= 0
    return False


def _may_not_fit(op: type, a: Any, b: Any) -> bool:
    # (8 bytes an item: a tuple's slot, the widest character; twice that for a temporary)
    left = room()
    return _items(op, a, b) > (_FITS if left is None else min(_FITS, left // 16))


def _items(op: type, a: Any, b: Any) -> float:
    """About how many items (characters, slots, bytes) the result of `a op b` has; infinity when
    that is not known."""
    try:
        if op is ast.Mult:
            seq, n = (a, b) if isinstance(a, (str, bytes, tuple)) else (b, a)
            if isinstance(seq, (str, bytes, tuple)) and isinstance(n, int):
                return len(seq) * max(n, 0)
            return (a.bit_length() + b.bit_length()) // 8
        if op is ast.LShift:
            return (a.bit_length() + max(b, 0)) // 8
        if op is ast.Pow:
            return a.bit_length() * b // 8 if b > 0 else 0
    except Exception:
        return float("inf")
    return float("inf")


def _crash(exc: BaseException, node, message: str, variables) -> Crash:
    return Crash(CertainCrash(type(exc).__name__, node.lineno, node.col_offset, message, _rule(exc),
                              [v for v in variables if v]))


def _rule(exc: BaseException) -> str:
    return {"ZeroDivisionError": "division-by-zero", "TypeError": "operand-types"}.get(type(exc).__name__,
                                                                                      "operator")


def binop(interp, left: Value, right: Value, op: ast.operator, node) -> Value:
    opt = type(op)
    sym = SYMBOLS.get(opt, "?")
    lk, rk = left.kind(), right.kind()
    if lk == "ndarray" or rk == "ndarray":
        return arrays.binop(interp, left, right, opt, node)
    if lk == "tensor" and rk == "tensor":
        return tensors.binop(interp, left, right, opt, node)
    a, b = left.concrete(), right.concrete()
    names = [left.name, right.name]
    if is_simple_constant(a) and is_simple_constant(b) and a is not NOTHING and b is not NOTHING:
        if _too_big(opt, a, b):
            if _may_not_fit(opt, a, b) or not _succeeds_unrun(opt, a, b):
                raise Stop(node.lineno, f"`{sym}` with a result that may not fit in memory")
            return Opaque(lk if lk == rk else None)
        try:
            result = BINOPS[opt](a, b)
        except ZeroDivisionError as exc:
            raise _crash(exc, node, f"{_describe(left)} {sym} {_describe(right)} divides by zero.", names)
        except TypeError as exc:
            raise _crash(exc, node, f"`{sym}` is not defined between {lk} and {rk} ({exc}).", names)
        except Exception as exc:
            raise _crash(exc, node, f"{_describe(left)} {sym} {_describe(right)} raises {type(exc).__name__}: {exc}.",
                         names)
        return LiveValue(result)
    if lk in SAMPLES and rk in SAMPLES and not (opt is ast.Mod and lk in ("str", "bytes")):
        # (`str % x` depends on the format string's contents, not only on the types.)
        try:
            BINOPS[opt](SAMPLES[lk], SAMPLES[rk])
        except TypeError as exc:
            raise _crash(exc, node, f"`{sym}` is not defined between {lk} and {rk} ({exc}).", names)
        except Exception:
            pass
        if opt in (ast.Div, ast.FloorDiv, ast.Mod) and lk in NUMERIC and rk in NUMERIC:
            if b is not NOTHING and b == 0:
                exc = ZeroDivisionError("division by zero")
                raise _crash(exc, node, f"{_describe(left)} {sym} {_describe(right)} divides by zero.", names)
            raise Stop(node.lineno, f"`{sym}` on values the checker does not know")
        if lk in NUMERIC and rk in NUMERIC and opt is not ast.Pow:
            kinds = (lk, rk)
            if ("complex" in kinds or "float" in kinds) and not (_fits_float(a, lk) and _fits_float(b, rk)):
                # (an int beyond the float range: `10**400 + 0.5` raises OverflowError)
                raise Stop(node.lineno, f"`{sym}` of an int the checker does not know with a float")
            if "complex" in kinds:
                return Opaque("complex")
            if "float" in kinds:
                return Opaque("float")
            if opt in (ast.LShift, ast.RShift) and not (type(b) is int and 0 <= b <= 64):
                # (a negative count is ValueError, a huge one OverflowError or MemoryError)
                raise Stop(node.lineno, f"`{sym}` by a count the checker does not know")
            return Opaque("int" if opt in (ast.Add, ast.Sub, ast.Mult, ast.RShift) else None)
    raise Stop(node.lineno, f"`{sym}` on {lk or 'a value'} and {rk or 'a value'}, which the checker does not model")


def _fits_float(c: Any, kind: str) -> bool:
    """A number that converts to a float without OverflowError: not an int, or one known small."""
    if kind not in ("int", "bool"):
        return True
    return type(c) in (int, bool) and -FLOAT_INTS < c < FLOAT_INTS


# Ints below this in magnitude convert to a float (the largest float is just under 2**1024).
FLOAT_INTS = 2 ** 1023


def unaryop(interp, operand: Value, node) -> Value:
    c = operand.concrete()
    if is_simple_constant(c) and c is not NOTHING:
        fn = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}
        try:
            return LiveValue(fn[type(node.op)](c))
        except TypeError as exc:
            raise _crash(exc, node, f"the unary operator does not apply to {operand.kind()} ({exc}).",
                         [operand.name])
    if isinstance(node.op, ast.Not):
        t = truth(operand)
        if t is not None:
            return LiveValue(not t)
    raise Stop(node.lineno, "a unary operator on a value the checker does not know")


def compare(interp, left: Value, right: Value, op: ast.cmpop, node) -> Value:
    a, b = left.concrete(), right.concrete()
    opt = type(op)
    if opt in (ast.Is, ast.IsNot) and a is not NOTHING and b is not NOTHING:
        same = _identical(a, b)
        if same is None:
            return Opaque("bool")  # (`is` never raises)
        return LiveValue(same if opt is ast.Is else not same)
    if is_simple_constant(a) and is_simple_constant(b) and a is not NOTHING and b is not NOTHING:
        if opt in (ast.In, ast.NotIn):
            try:
                r = a in b
            except (TypeError, ValueError) as exc:  # (`256 in b'abc'`: ValueError)
                raise _crash(exc, node, f"`in` does not apply here ({exc}).", [left.name, right.name])
            return LiveValue(r if opt is ast.In else not r)
        try:
            return LiveValue(COMPARES[opt](a, b))
        except TypeError as exc:
            raise _crash(exc, node, f"these values cannot be ordered ({exc}).", [left.name, right.name])
    if opt in (ast.Eq, ast.NotEq):
        # Element-wise (in)equality of a Series with a plain constant never raises.
        if left.kind() == "series" and type(b) in (str, int, float, bool, type(None)):
            return FactValue("series", length=left.series_length(), type_name="pandas.core.series.Series")
    raise Stop(node.lineno, "a comparison the checker does not model")


# The objects Python has one of: `x is None` means the same whoever made x.
_SINGLETONS = (None, True, False, Ellipsis, NotImplemented)


def _identical(a: Any, b: Any) -> Optional[bool]:
    """Whether the cell's `a is b` is True, when the language decides it. Which objects a literal or a
    folded constant gives is the compiler's choice (equal constants of one compiled statement are
    merged, short strings interned, small ints cached: `x = 1000; y = 1000` then `x is y` differs
    between one statement and two), and the checker's own objects are not the run's: only a
    singleton, or two values of different types, decide it."""
    if type(a) is not type(b):
        return False
    if any(a is s for s in _SINGLETONS) or any(b is s for s in _SINGLETONS):
        return a is b
    return None


def truth(v: Value) -> Optional[bool]:
    c = v.concrete()
    if c is NOTHING:
        return None
    if is_simple_constant(c) or type(c) in (list, dict, set):
        return bool(c)
    return None
