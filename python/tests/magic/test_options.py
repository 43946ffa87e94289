import pytest

from crane_llm.magic.options import USAGE, UsageError, parse_options


def test_no_options_means_llm_and_runtime_information_on():
    o = parse_options("")
    assert (o.use_llm, o.include_runtime_info, o.model, o.help) == (True, True, None, False)


def test_each_switch_and_a_model_name_in_any_order():
    o = parse_options("gpt-5-mini --no-runinfo")
    assert (o.use_llm, o.include_runtime_info, o.model) == (True, False, "gpt-5-mini")
    o = parse_options("--no-llm")
    assert (o.use_llm, o.include_runtime_info, o.model) == (False, True, None)
    o = parse_options("  --no-llm   --no-runinfo  anthropic/claude-sonnet-4.5 ")
    assert (o.use_llm, o.include_runtime_info, o.model) == (False, False, "anthropic/claude-sonnet-4.5")


@pytest.mark.parametrize("line, names", [
    ("--no-runinf", "--no-runinfo"),
    ("-x", "-x"),
    ("gpt-5 gpt-5-mini", "gpt-5-mini"),
    ("'unclosed", "could not read"),
])
def test_a_line_it_does_not_understand_is_a_usage_error(line, names):
    with pytest.raises(UsageError) as info:
        parse_options(line)
    assert names in str(info.value)
    assert USAGE in str(info.value)


def test_help():
    assert parse_options("--help").help and parse_options("-h").help


def test_budget_option_sets_the_check_budget():
    assert parse_options("--budget 0.5 gpt-5-mini").budget == 0.5
    assert parse_options("--budget=3").budget == 3.0
    assert parse_options("").budget is None


@pytest.mark.parametrize("line", ["--budget", "--budget abc", "--budget 0", "--budget=-1"])
def test_a_bad_budget_gets_the_usage(line):
    with pytest.raises(UsageError) as info:
        parse_options(line)
    assert "--budget takes a number of seconds" in str(info.value) and "Usage:" in str(info.value)
