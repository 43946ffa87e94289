"""Which kernel names a cell reads, with the attributes it uses on each, in first-use order."""

from crane_llm.runinfo import collect, used_names
from crane_llm.runinfo.names import cell_reads

NS = {name: object() for name in ("df", "model", "x", "y", "np", "pd", "helper", "n", "items", "cfg", "Base")}


def reads(source):
    return cell_reads(source)


def test_first_use_order_and_only_existing_names():
    assert used_names("model.fit(x, y)\nprint(df.shape, undefined_name)", NS) == ["model", "x", "y", "df"]


def test_attributes_and_methods_per_name_in_first_use_order():
    found = dict(reads("df = df.dropna()\nprint(df.shape)\nmodel.fit(x.values, y)\nmodel.predict(x)\ndf.dropna"))
    assert found["df"] == ["dropna"]  # `df.shape` reads the new df the cell assigned, not the kernel's
    assert found["model"] == ["fit", "predict"]
    assert found["x"] == ["values"]


def test_names_assigned_before_reading_are_not_taken():
    assert used_names("df = pd.read_csv('f')\ndf.head()", NS) == ["pd"]
    assert used_names("x = x + 1", NS) == ["x"]  # the right side runs first
    assert used_names("n += 1", NS) == ["n"]
    assert used_names("for item in items:\n    print(item, n)", NS) == ["items", "n"]


def test_subscript_and_attribute_targets_read_their_base():
    assert used_names("df['a'] = 1\ncfg.value = 2", NS) == ["df", "cfg"]


def test_chained_attributes_count_only_the_first_level():
    assert dict(reads("np.random.seed(0)"))["np"] == ["random"]


def test_comprehension_variables_are_local():
    assert used_names("[x for x in items if x > n]", NS) == ["items", "n"]
    assert used_names("{k: v for k, v in cfg.items()}", NS) == ["cfg"]


def test_function_bodies_read_free_globals_but_not_parameters_or_locals():
    src = "def f(x, y=n):\n    z = df.shape\n    return x + z + model.score\n"
    assert used_names(src, NS) == ["n", "df", "model"]


def test_lambda_parameters_and_class_bodies():
    assert used_names("g = lambda x: x + y", NS) == ["y"]
    assert used_names("class C(Base):\n    size = n\n", NS) == ["Base", "n"]


def test_imports_with_and_except_bind_names():
    src = "import numpy as np\nwith open('f') as cfg:\n    pass\ntry:\n    pass\nexcept Exception as x:\n    pass\nprint(np, cfg, x)"
    assert used_names(src, NS) == []


def test_ipython_syntax_goes_through_the_input_transformer():
    assert used_names("%time model.fit(x, y)\n!ls\ndf?", NS)[:3] == ["model", "x", "y"]
    assert used_names("%%time\nmodel.fit(x, y)\n", NS) == ["model", "x", "y"]


def test_unparsable_cell_reads_nothing():
    assert used_names("df.head(", NS) == []
    assert collect("df.head(", NS) == {"variables": []}


def test_collect_lists_variables_in_the_same_order_with_attributes():
    ns = {"a": 1, "b": [1, 2], "print": print}
    info = collect("c = b.copy()\nprint(a + len(b))", ns)
    assert [(v["name"], v["attributes"]) for v in info["variables"]] == [("b", ["copy"]), ("print", []), ("a", [])]
