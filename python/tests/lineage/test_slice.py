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
