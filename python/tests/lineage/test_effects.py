"""What a cell's code does to variables, read from the code alone."""

from crane_llm.lineage.effects import analyse


def summary(code):
    return [(e["name"], e["line"], e["op"], e["how"], e["detail"], e["status"], e["why"]) for e in analyse(code).effects]


def test_chained_in_place_call_is_only_possible():
    # pandas 3 copy-on-write: this does not change df, so it must not be claimed
    assert summary("df['a'].fillna(0, inplace=True)") == [("df", 1, "modify", "inplace", "fillna", "maybe", "chained")]


def test_drop_axis_is_read_from_the_call():
    got = [e[4] for e in summary("df.drop('a', axis=1, inplace=True)\ndf.drop([0], inplace=True)\n"
                                  "df.drop(index=[1], inplace=True)\ndf.drop(labels=x, axis=ax, inplace=True)")]
    assert got == ["drop:columns", "drop:rows", "drop:rows", "drop:unknown"]


def test_comprehensions_lambdas_and_conditionals():
    assert summary("[xs.append(i) for i in r]") == [("xs", 1, "modify", "method", "append", "maybe", "loop")]
    assert summary("f = lambda: xs.append(1)") == [("f", 1, "assign", "assign", None, "done", None)]
    assert summary("ok and xs.pop()") == [("xs", 1, "modify", "method", "pop", "maybe", "branch")]
    assert summary("while n:\n    n -= 1") == [("n", 2, "modify", "augmented", "-=", "maybe", "loop")]
    assert summary("try:\n    a = 1\nexcept E as err:\n    a = 2\nfinally:\n    b = 3") == [
        ("a", 2, "assign", "assign", None, "maybe", "try"),
        ("err", 3, "assign", "except", None, "maybe", "try"),
        ("a", 4, "assign", "assign", None, "maybe", "try"),
        ("b", 6, "assign", "assign", None, "done", None),
    ]


def test_walrus_imports_star_and_dynamic_code():
    assert summary("if (n := len(xs)) > 2:\n    pass") == [("n", 1, "assign", "walrus", None, "done", None)]
    assert summary("import os.path\nimport numpy as np\nfrom m import *") == [
        ("os", 1, "assign", "import", "os.path", "done", None),
        ("np", 2, "assign", "import", "numpy", "done", None),
        ("*", 3, "assign", "import-star", "m", "maybe", "dynamic"),
    ]
    assert summary("exec('x = 1')") == [("*", 1, "modify", "dynamic", "exec", "maybe", "dynamic")]
    assert summary("setattr(model, 'k', 1)") == [("model", 1, "modify", "attr-store", None, "done", None)]


def test_torch_and_numpy_in_place():
    assert [e[3:5] for e in summary("w.add_(1)\nnp.random.shuffle(idx)\nmodel.train()\nmodel.to(device)")] == [
        ("method", "add_"), ("function", "np.random.shuffle"), ("method", "train"), ("method", "to")]
    # `.to(device)` returns a copy for tensors and moves modules in place: only possible
    assert summary("model.to(device)")[0][5:] == ("maybe", "dynamic")


def test_function_bodies_are_not_effects_but_summaries():
    analysis = analyse("def f(a, *rest, k=1, **kw):\n    global g\n    g = a\n    cache[a] = 1\n    local = 2\n"
                       "    local.append(1)\n    a.append(2)\n    helper()")
    assert [(e["name"], e["how"]) for e in analysis.effects] == [("f", "def")]
    fn = analysis.functions["f"]
    assert fn.global_effects == [("g", "assign"), ("cache", "modify")]
    assert fn.calls == ["helper"]


def test_ipython_syntax_keeps_cell_lines():
    assert [(e[0], e[1]) for e in summary("!ls\n%matplotlib inline\nfiles = !ls\nx = 1")] == [("files", 3), ("x", 4)]
    assert analyse("x = (").syntax_error == 1
