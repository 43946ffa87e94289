"""A recorded DataFrame's or ndarray's missing attribute in the replay (recorded_attributes.py):
`df.Agee` and `arr.append` are AttributeErrors when no pandas (NumPy) had the name and nothing in
the recorded kernel added it. Each pair
runs for real; each history that gives frames the name runs clean and gets no claim, and the gate
is then read alone in this process from facts as the recording would show them."""

from __future__ import annotations

import pytest

from exec_runner import CELL_BREAK as B
from exec_runner import run_batch
from fuzzgen import verdict
from harness import assert_clean_and_unclaimed, assert_replay_pair, replayed
from crane_llm.checks import run_checks_on_facts

pytest.importorskip("pandas")  # (the replay reads the installed pandas; the checker imports nothing itself)

SETUP = ("import pandas as pd\nimport numpy as np\nimport seaborn as sns\n"
         "df = pd.DataFrame({'Age': [30, 41, 25], 'Name': ['ann', 'bob', 'cy'], 'label': [0, 1, 0]})\n"
         "print('shape:', df.shape)")

PAIRS = [  # (crashing cell, its clean twin)
    ("m = df.Agee.mean()", "m = df.Age.mean()"),
    ("df.labels.value_counts()", "df.label.value_counts()"),
    ("n = df.name", "n = df.Name"),  # not 'name': pandas gives group frames that attribute
    ("x = df.sort_value('Age')", "x = df.sort_values('Age')"),
    ("arr = df.to_array()", "arr = df.to_numpy()"),
]

# Histories after which `df.agee` (or the attribute shown) runs clean.
HOSTILE = [
    (SETUP + B + "df.agee = 5", "v = df.agee"),
    (SETUP + B + "setattr(df, 'ag' + 'ee', 5)", "v = df.agee"),
    (SETUP + B + "object.__setattr__(df, 'agee', 5)", "v = df.agee"),
    (SETUP + B + "df.__dict__['agee'] = 5", "v = df.agee"),
    (SETUP + B + "@pd.api.extensions.register_dataframe_accessor('agee')\nclass Agee:\n"
     "    def __init__(self, frame):\n        self.frame = frame", "v = df.agee"),
    (SETUP + B + "from pandas.api.extensions import register_dataframe_accessor as reg\n"
     "reg('agee')(lambda frame: 5)", "v = df.agee"),
    (SETUP + B + "pd.DataFrame.agee = property(lambda self: 5)", "v = df.agee"),
    # the frame of a group, as `groupby(...).apply` hands it to a function: it carries `.name`
    (SETUP + B + "groups = []\ndf.groupby('label').apply(groups.append)\ndf = groups[0]", "v = df.name"),
]
# A class of the notebook's own with dunder methods: its names are no frame's, and the claim stays.
KEPT = [
    (SETUP + B + "class Box:\n    def __getattr__(self, name):\n        return 1\nb = Box()", "v = df.agee"),
]
TEARDOWN = ("import pandas as pd\nif 'agee' in vars(pd.DataFrame):\n    delattr(pd.DataFrame, 'agee')\n"
            "pd.DataFrame._accessors.discard('agee')")


def _cases():
    cases = [{"setup": SETUP, "cell": c} for pair in PAIRS for c in pair]
    cases += [{"setup": s, "cell": c, "teardown": TEARDOWN} for s, c in HOSTILE]
    cases += [{"setup": s, "cell": c} for s, c in KEPT]
    return replayed(cases)


@pytest.fixture(scope="module")
def results():
    return run_batch(_cases())


def test_a_name_no_pandas_has_is_claimed_and_the_twins_get_no_claim(results):
    for i, (crash, _) in enumerate(PAIRS):
        if crash == "n = df.name":  # (never judged: pandas gives group frames that attribute)
            assert results[2 * i]["raised"]["exception"] == "AttributeError" and results[2 * i]["replay_claim"] is None
        else:
            assert_replay_pair(results[2 * i], results[2 * i + 1], "AttributeError")


def test_histories_that_give_frames_the_name_run_clean_and_get_no_claim(results):
    for (setup, cell), r in zip(HOSTILE, results[2 * len(PAIRS):2 * len(PAIRS) + len(HOSTILE)]):
        assert_clean_and_unclaimed(r, setup)


def _facts(type_name: str = "pandas.core.frame.DataFrame"):
    column = {"dtype": "int64", "type": "continuous", "num_unique": 3, "value_range": (25, 41)}
    return {"pd": {"type": "<class 'module'>"}, "np": {"type": "<class 'module'>"},
            "df": {"type": type_name, "shape": (3, 3), "has_nan": False,
                   "per_column": {"Age": column, "Name": {"dtype": "object", "type": "categorical", "num_unique": 3,
                                                          "unique_values": ["ann", "bob", "cy"]}, "label": column}}}


GATED = [s for s, _ in HOSTILE[:-1]] + [
    # a private name pandas may read from the frame itself, spelled where a library could set it
    SETUP + B + "opts = dict(_info_axis_name='index')",
    SETUP + B + "from tqdm import tqdm\ntqdm.pandas()",
    # (third red team, 7 Dec) tqdm's registration reached under other names
    SETUP + B + "from tqdm import tqdm\nf = tqdm.pandas\nf()",
    SETUP + B + "from tqdm import tqdm, tqdm_pandas\ntqdm_pandas(tqdm())",
    SETUP + B + "from tqdm import tqdm\nlist(map(lambda f: f(), [tqdm.pandas]))",
    SETUP + B + "import hvplot.pandas",
    SETUP + B + "import pandas_profiling",
    SETUP + B + "def load():\n    import ydata_profiling\nload()",
    SETUP + B + "__name__ = 'pandas.core.frame'\nclass DataFrame(pd.DataFrame):\n    agee = 5\ndf = DataFrame(df)",
    SETUP + B + "class DataFrame(pd.DataFrame):\n    __module__ = 'pandas.core.frame'\n    agee = 5\ndf = DataFrame(df)",
    SETUP + B + "class D(pd.DataFrame):\n    agee = 5\nD.__module__ = 'pandas.core.frame'\nD.__qualname__ = D.__name__ = "
    "'DataFrame'\ndf = D(df)",
]


@pytest.mark.parametrize("setup", GATED)
def test_the_gate_alone_refuses_each_history(setup):
    cell = "v = df.agee"
    assert run_checks_on_facts(cell, _facts(), executed=setup.split(B)).crash is None
    assert run_checks_on_facts(cell, _facts(), executed=SETUP.split(B)).crash is not None  # the plain twin


def test_what_the_facts_do_not_settle_is_not_judged():
    cell = "v = df.agee"
    for name in ("append", "ix", "applymap", "select", "from_arrow", "name", "_metadata", "__foo__"):
        assert run_checks_on_facts(f"v = df.{name}", _facts(), executed=[SETUP]).crash is None, name
    wide = _facts()
    wide["df"]["shape"] = (3, 30)  # the recording lists 20 of its columns at most
    assert run_checks_on_facts(cell, wide, executed=[SETUP]).crash is None
    assert run_checks_on_facts(cell, _facts()).crash is None  # nothing says what the executed cells did
    assert run_checks_on_facts(cell, _facts("__main__.DataFrame"), executed=[SETUP]).crash is None
    # pandas 3 records its frames as `pandas.DataFrame`
    assert run_checks_on_facts(cell, _facts("pandas.DataFrame"), executed=[SETUP]).crash is not None


def test_dunder_methods_of_other_classes_keep_the_claim(results):
    for (setup, cell), r in zip(KEPT, results[2 * len(PAIRS) + len(HOSTILE):]):
        assert r["setup_error"] is None and r["checker_error"] is None, (setup, r)
        assert verdict(r, key="replay_claim") == "caught", (setup, r["replay_claim"], r.get("replay_stop"))


ARRAYS = "import numpy as np\nlabels = np.array(['a', 'b'])\narr = np.zeros(3)"
ARRAY_PAIRS = [("s = labels.join(',')", "s = ','.join(labels)"), ("arr.append(1.0)", "arr = np.append(arr, 1.0)"),
               ("n = arr.shap", "n = arr.shape")]
# A subclass of the notebook's own renamed `numpy.ndarray`: the recorder would write it as one.
SPOOF = (ARRAYS + B + "class A(np.ndarray):\n    def append(self, x):\n        return x\n"
         "A.__name__ = 'ndarray'\nA.__module__ = 'numpy'\narr = np.zeros(3).view(A)")


def test_an_attribute_no_numpy_array_has_is_claimed_and_a_renamed_subclass_is_not():
    cases = [{"setup": ARRAYS, "cell": c} for pair in ARRAY_PAIRS for c in pair]
    cases.append({"setup": SPOOF, "cell": "arr.append(1.0)"})
    results = run_batch(replayed(cases))
    for i in range(len(ARRAY_PAIRS)):
        assert_replay_pair(results[2 * i], results[2 * i + 1], "AttributeError")
    assert_clean_and_unclaimed(results[-1], SPOOF)
    # as the paper's recorder would show the renamed subclass
    facts = {"np": {"type": "<class 'module'>"}, "arr": {"type": "numpy.ndarray", "shape": (3,), "dtype": "float64"}}
    assert run_checks_on_facts("arr.append(1.0)", facts, executed=SPOOF.split(B)).crash is None
    assert run_checks_on_facts("arr.append(1.0)", facts, executed=ARRAYS.split(B)).crash is not None
    assert run_checks_on_facts("arr.ptp()", facts, executed=ARRAYS.split(B)).crash is None  # NumPy 1.x had it


BUILTIN_PAIRS = [  # (setup, crashing cell, clean twin): exact lists, tuples and dicts, as recorded
    ("X = [[1, 2], [3, 4]]", "n = X.shape[0]", "n = len(X)"),
    ("t = (1, 2)", "t.append(3)", "t.count(1)"),
    ("d = {'a': 1}", "for k, v in d.iteritems():\n    pass", "for k, v in d.items():\n    pass"),
]
BUILTIN_KEPT = [  # a list subclass, and a name an executed cell rebinds to an array, have the attribute
    ("class L(list):\n    shape = (2,)\nX = L([1])", "X.shape"),
    # (a dict subclass renamed so that it is recorded as `<class 'dict'>`)
    ("class AttrDict(dict):\n    def iteritems(self):\n        return iter(self.items())\n"
     "AttrDict.__name__ = 'dict'\nAttrDict.__module__ = 'builtins'\nd = AttrDict(a=1)", "d.iteritems()"),
    ("D = type('dict', (dict,), {'__module__': 'builtins', 'shape': (1,)})\nd = D(a=1)", "d.shape"),
    ("import numpy as np\nX = [[1, 2], [3, 4]]" + B + "X = np.array(X)", "X.shape"),
]


def test_an_attribute_no_list_tuple_or_dict_has_is_claimed_from_the_recording():
    cases = [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, bad, good in BUILTIN_PAIRS
             for c in (bad, good)] + [dict(setup=s, cell=c, replay=True, replay_executed=True) for s, c in BUILTIN_KEPT]
    results = run_batch(cases)
    for i, (_, bad, good) in enumerate(BUILTIN_PAIRS):
        crash, twin = results[2 * i], results[2 * i + 1]
        assert verdict(crash, key="replay_claim") == "caught" and crash["raised"]["exception"] == "AttributeError", crash
        assert verdict(twin, key="replay_claim") == "clean", twin
    for r in results[2 * len(BUILTIN_PAIRS):]:
        assert verdict(r, key="replay_claim") == "clean", r
