"""Two ways past the zoo's guards: a metaclass that names a library as its module (the
`__module__` string is anyone's to write), and a namespace key of the notebook's that hashes like a
name the cell reads (a dict lookup of that name calls the key's `__eq__`). No hook runs, and the
plain twins are still summarised."""

import enum

from crane_llm.kernel.entry import gather

from .hostile_zoo import ARMED, CALLS, WHERE, make_meta


def _gather(source, namespace):
    CALLS.clear()
    WHERE.clear()
    ARMED[0] = True
    try:
        return gather({"protocol": 1, "source": source, "cellId": None, "useLlm": True, "includeRuntimeInfo": True,
                       "budgetSeconds": 2}, namespace)
    finally:
        ARMED[0] = False


def _summaries(reply):
    return {v["name"]: v["summary"] for v in (reply["runtimeInfo"] or {"variables": []})["variables"]}


def test_a_metaclass_naming_a_library_module_is_not_trusted():
    meta = make_meta("count")
    for home in ("numpy", "enum", "torch"):
        type.__setattr__(meta, "__module__", home)
        cls = meta("Posing", (list,), {})
        reply = _gather("c.foo\nprint(c)", {"c": cls()})
        assert CALLS == [], "\n".join(sorted(set(WHERE)))
        assert _summaries(reply)["c"]["kind"] in ("object", "unavailable")


class Colour(enum.Enum):
    RED = 1


def test_a_library_metaclass_still_counts_as_plain():
    reply = _gather("print(c)", {"c": Colour.RED})
    assert CALLS == [] and _summaries(reply)["c"]["kind"] != "unavailable"


class _Collides:
    def __hash__(self):
        return hash("df")

    def __eq__(self, other):
        if ARMED[0]:
            CALLS.append("__eq__")
        return False


def test_a_namespace_key_hashing_like_a_read_name_is_never_compared():
    namespace = {_Collides(): 1, "df": [1, 2]}
    reply = _gather("print(df)", namespace)
    assert CALLS == []
    assert reply["runtimeInfo"] is None or "df" not in _summaries(reply) or \
        _summaries(reply)["df"]["kind"] == "unavailable"
    twin = _gather("print(df)", {"df": [1, 2]})
    assert _summaries(twin)["df"]["kind"] == "sequence"
