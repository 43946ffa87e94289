import pytest

from crane_llm.cli import _parser


def test_check_takes_a_budget_in_seconds():
    args = _parser().parse_args(["check", "nb.ipynb", "--cell", "2", "--budget", "0.75"])
    assert args.budget == 0.75


@pytest.mark.parametrize("bad", ["0", "-1", "soon", "nan"])
def test_a_bad_budget_is_a_clear_usage_error(bad, capsys):
    with pytest.raises(SystemExit) as info:
        _parser().parse_args(["check", "nb.ipynb", "--cell", "2", "--budget", bad])
    assert info.value.code == 2
    assert "--budget: a number of seconds between 0 and 600" in capsys.readouterr().err
