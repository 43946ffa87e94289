"""`--context slice`: which executed cells a target's slice keeps, and which it drops."""

from __future__ import annotations

from crane_llm.lineage.slice import reads, slice_indices, slice_runs


def kept(codes, target):
    return [codes[i] for i in slice_indices(codes, target)]


def test_the_slice_follows_the_targets_names_back_transitively_and_drops_the_rest():
    codes = [
        "import pandas as pd\nimport matplotlib.pyplot as plt",  # 0 binds pd, which cell 1 reads
        "raw = pd.read_csv('a.csv')",                             # 1 raw, which cell 4 reads
        "raw.head()",                                             # 2 display only: dropped
        "counts = [1, 2]",                                        # 3 never read: dropped
        "df = raw.dropna()",                                      # 4 df: read by the target
        "other = 3",                                              # 5 never read: dropped
    ]
    assert slice_indices(codes, "df.groupby('a').mean()") == [0, 1, 4]


def test_an_in_place_change_and_a_user_function_that_changes_a_global_are_kept():
    codes = [
        "import pandas as pd\ndf = pd.DataFrame({'a': [1, None]})",
        "df.dropna(inplace=True)",                     # modifies df in place
        "def add_col():\n    df['b'] = df['a'] * 2",   # defines the function that changes df
        "add_col()",                                   # calling it changes df (the lineage's call effect)
        "print(df.shape)",                             # reads df, writes nothing
        "unrelated = [1, 2, 3]",
    ]
    assert slice_indices(codes, "df['b'].sum()") == [0, 1, 2, 3]


def test_dependencies_are_followed_statement_by_statement():
    # Cell 1 is kept for `y`, but its other statement reads `b`: the cell defining `b` is not needed.
    codes = ["a = 1", "b = 2", "y = a + 1\nz = b * 2"]
    assert slice_indices(codes, "print(y)") == [0, 2]
    assert slice_indices(codes, "print(z)") == [1, 2]


def test_a_certain_rebinding_makes_earlier_definitions_unnecessary_but_a_conditional_one_does_not():
    assert slice_indices(["df = load()", "df = fresh()"], "df.head()") == [1]
    assert slice_indices(["df = load()", "if cond:\n    df = fresh()"], "df.head()") == [0, 1]
    # x = x + 1 rebinds x from its old value: the old one is still needed
    assert slice_indices(["x = 1", "x = x + 1"], "print(x)") == [0, 1]


def test_runs_the_lineage_cannot_read_are_kept_with_everything_they_read():
    codes = [
        "secret = 1",
        "exec('y = secret')",          # writes any name: kept, and reads `secret`... through a string
        "from os.path import *",       # binds unknown names: kept
        "print((1,",                   # does not parse: kept
        "%run helper.py",              # a script the log holds no text for: kept
        "unused = 2",
    ]
    assert slice_indices(codes, "print(y)") == [1, 2, 3, 4]


def test_an_unreadable_target_keeps_every_cell():
    codes = ["a = 1", "b = 2"]
    assert slice_indices(codes, "def broken(:") == [0, 1]


def test_ipython_syntax_is_read_as_the_kernel_runs_it():
    codes = ["%matplotlib inline\nimport numpy as np", "!ls", "arr = np.zeros(3)"]
    assert slice_indices(codes, "arr.sum()") == [0, 2]
    assert {"np"} <= reads("arr = np.zeros(3)")


def test_slice_runs_returns_the_kept_runs_themselves_in_order():
    executed = [{"executionCount": 1, "cellId": "a", "code": "x = 1"},
                {"executionCount": 2, "cellId": "b", "code": "print('hi')"},
                {"executionCount": 3, "cellId": "c", "code": "y = x", "raised": None}]
    assert slice_runs(executed, "y + 1") == [executed[0], executed[2]]


def sliced_code(codes, target):
    return [r["code"] for r in slice_runs([{"code": c} for c in codes], target)]


def test_inside_a_kept_cell_the_statements_the_target_does_not_need_are_left_out_and_marked():
    cell = ("import pandas as pd\nimport seaborn as sns\nraw = pd.read_csv('sales.csv')\n"
            "# a first look at what was read\nraw.head()\nprint(raw.describe())\nsummary_of_everything = raw.describe()")
    [code] = sliced_code([cell], "raw['price'].mean()")
    assert code == "import pandas as pd\n# ...\nraw = pd.read_csv('sales.csv')\n# ..."
    [run] = slice_runs([{"code": cell, "cellId": "a"}], "raw['price'].mean()")
    assert run["linesLeftOut"] == 5 and run["cellId"] == "a"


def test_statements_that_bind_change_or_delete_a_needed_name_stay():
    cell = ("df = load()\ndf.dropna(inplace=True)\ndel df['id']\ndf.loc[0, 'a'] = 1\nfor c in cols:\n"
            "    df[c] = df[c].fillna(0)\nunrelated_table = df.describe().transpose()")
    [code] = sliced_code([cell], "df.mean()")
    assert code == cell.rsplit("\n", 1)[0] + "\n# ..."


def test_statements_whose_effects_the_lineage_cannot_read_stay():
    cell = ("import os\nimport numpy as np\nimport warnings\narr = np.zeros(3)\n"
            "os.chdir('data')\n"                      # the working directory: a later read_csv depends on it
            "np.random.seed(0)\n"                     # the random state
            "warnings.filterwarnings('error')\n"      # warnings become exceptions
            "helper(arr)\n"                           # a function the notebook defines: it could do anything
            "model.head()\n"                          # `head` is a method of a notebook class here
            "printed_once_more = print(arr)\n")
    codes = ["def helper(a):\n    pass", "class Model:\n    def head(self):\n        pass\nmodel = Model()", cell]
    code = sliced_code(codes, "arr.sum()")[-1]
    for kept in ("os.chdir('data')", "np.random.seed(0)", "warnings.filterwarnings('error')", "helper(arr)", "model.head()"):
        assert kept in code
    assert "printed_once_more" not in code and "import numpy as np" in code


def test_a_notebook_that_rebinds_a_reading_builtin_is_not_trusted_with_it():
    code = sliced_code(["def print(*a):\n    log.append(a)", "x = 1\nprint('a fairly long line that says hello')"], "x + 1")[-1]
    assert code == "x = 1\nprint('a fairly long line that says hello')"


def test_drawing_is_left_out_unless_the_target_draws_on_the_same_figure():
    cell = "import matplotlib.pyplot as plt\ndf = load()\nplt.figure(figsize=(10, 4))\nplt.title('the distribution')"
    assert sliced_code([cell], "df.mean()")[0] == "# ...\ndf = load()\n# ..."
    assert sliced_code([cell], "plt.plot(df['a'])")[0] == cell


def test_cells_the_slice_cannot_cut_safely_are_sent_whole():
    # a cell magic (its text is not the code the lineage read), and a marker that would be longer
    timed = "%%time\ndf = load()\nunused_but_long_enough_name = df.describe()"
    short = "df = load()\nn = 1"
    assert sliced_code([timed], "df.mean()") == [timed]
    assert sliced_code([short], "df.mean()") == [short]


def test_the_prompt_says_the_cells_are_a_slice_with_lines_left_out():
    from crane_llm.prompt import build_prompt

    executed = slice_runs([{"code": "df = load()\nsummary_table = df.describe().transpose()"}], "df.mean()")
    sliced = build_prompt(executed, None, "df.mean()", context="slice")
    assert "the cells already run that the target depends on" in sliced["instructions"]
    assert "# ..." in sliced["text"]
    assert "depends on" not in build_prompt(executed, None, "df.mean()")["instructions"]


def test_a_functions_own_names_do_not_read_the_notebooks():
    # `df` is f's parameter, `rows` its local, `x` the comprehension's: none reads the notebook's.
    codes = ["df = load()", "rows = 3", "x = 9",
             "def f(df):\n    rows = len(df)\n    return [x * rows for x in df]"]
    assert slice_indices(codes, "f(other)") == [3]
    # A free name, a global declaration and a default argument do read the notebook's.
    assert slice_indices(["df = load()", "def g():\n    return df.mean()"], "g()") == [0, 1]
    assert slice_indices(["rows = 1", "def h():\n    global rows\n    rows = 2"], "h()") == [0, 1]
    assert slice_indices(["df = load()", "def k(d=df):\n    return d"], "k()") == [0, 1]
    # A nested function sees its enclosing function's names, not the notebook's.
    assert slice_indices(["n = 1", "def outer(n):\n    def inner():\n        return n\n    return inner"], "outer(2)") == [1]
    assert {"n"} <= reads("def outer():\n    def inner():\n        return n\n    return inner")


def test_display_only_statements_inside_a_kept_loop_are_left_out_but_not_inside_try_or_with():
    cell = ("totals = []\nfor part in parts:\n    totals.append(part.sum())\n"
            "    print('the running totals so far are', totals)\n    if len(totals) > 2:\n        display(part.describe())")
    [code] = sliced_code([cell], "sum(totals)")
    assert code == "totals = []\nfor part in parts:\n    totals.append(part.sum())\n    # ..."
    # In a try, a statement that raised picks the handler; a with's manager may swallow what raised.
    guarded = "try:\n    print('a long enough message to be worth a marker', parts[0])\n    y = 1\nexcept IndexError:\n    y = 2"
    assert sliced_code([guarded], "y + 1") == [guarded]
    # An assignment expression binds a name: it stays.
    walrus = "for part in parts:\n    print('a long enough message for a marker', (seen := part))\n    y = part"
    assert sliced_code([walrus], "y + seen") == [walrus]


def test_print_to_a_file_is_not_only_reading():
    cell = "y = 1\nprint('a long enough line to be written to the log file', file=log)"
    assert sliced_code(["log = open('log.txt', 'w')", cell], "y")[-1] == cell


def test_docstrings_of_kept_functions_and_classes_are_left_out_unless_the_notebook_reads_them():
    cell = ('def train(model):\n    """Fit the model on the training set and return it,\n'
            '    with its history kept for the plots below.\n    """\n    return model.fit()')
    [code] = sliced_code([cell], "train(m)")
    assert code == "def train(model):\n    # ...\n    return model.fit()"
    assert sliced_code([cell], "print(train.__doc__)") == [cell]


def test_a_cell_that_raised_is_sent_whole_its_heading_names_the_line():
    cell = "df = load()\nsummary_of_everything = df.describe().transpose()\ndf['b']"
    [run] = slice_runs([{"code": cell, "raised": {"exception": "KeyError", "line": 3}}], "df.mean()")
    assert run["code"] == cell and "linesLeftOut" not in run


def test_a_global_a_function_reads_is_needed_as_it_is_when_called_not_when_defined():
    # `f` reads `g` when it is called: the target sees `g = 2`, bound after the definition.
    codes = ["g = 1\ndef f():\n    return g", "g = 2", "h = 5"]
    assert slice_indices(codes, "f()") == [0, 1]
    # A rebinding after the definition does not make the earlier value dead: a call may have come
    # in between (a later cell, a callback an object holds), so both are kept.
    codes = ["g = 1", "def f():\n    return g", "g = 2", "h = 5"]
    assert slice_indices(codes, "f()") == [0, 1, 2]
    # Before the definition, a certain rebinding still ends what an older value could do.
    codes = ["g = 1", "g = 3", "def f():\n    return g", "h = 5"]
    assert slice_indices(codes, "f()") == [1, 2]


def test_a_method_reads_the_globals_bound_after_its_class_and_the_chain_is_followed():
    codes = [
        "class Model:\n    def run(self):\n        return scale * helper()",  # reads scale, helper when run
        "def helper():\n    return base",                                    # reads base when called
        "base = 3",
        "scale = 2",
        "m = Model()",
        "unrelated = 1",
    ]
    assert slice_indices(codes, "m.run()") == [0, 1, 2, 3, 4]
    # A name read only where the class is defined (a class attribute) is read there, once.
    codes = ["k = 1", "class A:\n    size = k", "k = 2", "a = A()"]
    assert slice_indices(codes, "a.size") == [0, 1, 3]


def test_a_name_the_target_rebinds_before_reading_it_needs_no_older_value():
    codes = ["df = load_old()", "other = 1"]
    # `df` bound by the target's first statement, from nothing the notebook holds
    assert slice_indices(codes, "df = pd.read_csv('a.csv')\ndf.head()") == []
    # ... but kept wherever the rebinding reads it, may not happen, or comes after the read
    for target in ("df = df.dropna()\ndf.head()",
                   "if cond:\n    df = fresh()\ndf.head()",
                   "for p in parts:\n    df = fresh(p)\ndf.head()",
                   "try:\n    df = fresh()\nexcept OSError:\n    pass\ndf.head()",
                   "df.head()\ndf = fresh()",
                   "df['a'] = 1\ndf.head()",
                   "df.a = 1\ndf.head()",
                   "df += 1",
                   "df2 = df\ndf = fresh()\ndf2.head()",
                   "def f():\n    return df\ndf = fresh()\nf()",
                   "def g():\n    global df\n    df = 2\ng()\ndf.head()"):
        assert slice_indices(codes, target) == [0], target


def test_a_walk_of_the_file_system_printed_is_left_out():
    cell = ("import os\nfor dirname, _, filenames in os.walk('data'):\n    for filename in filenames:\n"
            "        print(os.path.join(dirname, filename))\ndf = load()")
    assert sliced_code([cell], "df.mean()")[0] == "# ...\ndf = load()"


def test_an_import_that_may_change_what_the_target_uses_stays_needed_or_not():
    target = "df.profile_report()"
    codes = ["import pandas as pd\ndf = pd.read_csv('a.csv')", "import pandas_profiling", "import seaborn as sns"]
    # pandas_profiling gives every DataFrame `.profile_report` when imported: kept, in a cell of its own too
    assert slice_indices(codes, target) == [0, 1]
    for line in ("from sklearn.experimental import enable_iterative_imputer", "from __future__ import annotations",
                 "from .helpers import clean", "import hvplot.pandas"):
        code = sliced_code(["import pandas as pd\n%s\ndf = pd.read_csv('a.csv')" % line], "df.mean()")[0]
        assert line in code, line
    # `from sklearn import svm` sets `sklearn.svm`, which the target reaches through `sklearn`
    codes = ["import sklearn", "from sklearn import svm", "x = 1"]
    assert slice_indices(codes, "sklearn.svm.SVC()") == [0, 1]
    # an import of a library that changes nothing else, of a name nothing reads, is left out
    code = sliced_code(["import numpy as np\nimport seaborn as sns\nfrom sklearn.svm import SVC\ndf = np.ones(3)"], "df.sum()")[0]
    assert code == "import numpy as np\n# ...\ndf = np.ones(3)"
    # an import rebound by the same import later is dead; `import a.b` sets `a.b`, so it stays while `a` is needed
    code = sliced_code(["import numpy as np\nimport numpy as np\narr = np.ones(3)"], "arr.sum()")[0]
    assert code == "# ...\nimport numpy as np\narr = np.ones(3)"
    code = sliced_code(["import os\nimport os.path\nimport os\np = os.getcwd()"], "p.upper()")[0]
    assert code == "# ...\nimport os.path\nimport os\np = os.getcwd()"
