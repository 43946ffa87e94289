"""The token budget: the oldest executed cells go first, and only as many as needed."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from crane_llm.prompt import build_prompt, estimate_tokens
from crane_llm.prompt.build import _cell_block, _compose, is_crane_llm_cell

code = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300)
cells = st.lists(code, max_size=12).map(
    lambda codes: [{"executionCount": i + 1, "cellId": "c%d" % i, "code": c} for i, c in enumerate(codes)]
)


@settings(max_examples=300, deadline=None)
@example(executed=[], runinfo="0" * 88, target="", budget=0)  # the runtime information itself is cut
# A `%%crane_llm` cell never ran its body: it is not sent at all, so it is not counted as dropped.
@example(executed=[{"executionCount": 1, "cellId": "c0", "code": "%%crane_llm"}], runinfo=None, target="", budget=0)
@given(cells, st.one_of(st.none(), code), code, st.integers(min_value=0, max_value=1500))
def test_drops_the_fewest_oldest_cells_that_fit(executed, runinfo, target, budget):
    prompt = build_prompt(executed, runinfo, target, budget)
    executed = [c for c in executed if not is_crane_llm_cell(c["code"])]  # the cells the prompt sends
    k = len(prompt["dropped"])
    assert [d["position"] for d in prompt["dropped"]] == list(range(1, k + 1))
    assert prompt["estimatedTokens"] == estimate_tokens(prompt["text"])
    assert prompt["overBudget"] == (prompt["estimatedTokens"] > budget)
    if prompt["overBudget"]:
        assert k == len(executed)  # everything droppable went, and the target stayed
    if k > 0:
        # Dropping one cell fewer would not have fitted.
        blocks = [_cell_block(i + 1, c) for i, c in enumerate(executed)]
        fewer = prompt["instructions"] + "\n\n" + _compose(blocks, k - 1, runinfo, target)
        assert estimate_tokens(fewer) > budget
    assert prompt["input"].endswith("# Target Cell:\n%s\n" % target)
    if runinfo is not None and prompt["runtimeInfoCut"] == 0:
        assert "# Current relevant runtime information:\n%s\n\n" % runinfo in prompt["input"]
    elif runinfo is not None:
        # With every cell gone and still over budget, the runtime information's last lines go, and say so.
        assert "of runtime information left out to keep the prompt within its size limit." in prompt["input"]
        assert k == len(executed)


def test_a_prompt_within_budget_keeps_every_cell():
    executed = [{"executionCount": 1, "cellId": None, "code": "a = 1"}, {"executionCount": 2, "cellId": None, "code": "b = a"}]
    prompt = build_prompt(executed, None, "b + 1")
    assert prompt["dropped"] == [] and "## Cell 1:\na = 1\n\n## Cell 2:\nb = a\n\n" in prompt["input"]
    assert prompt["budgetTokens"] == 24000


# The same cases as libs/prompt/src/prompt-weight.test.ts: (text, weight in quarter tokens).
WEIGHTS = [
    ("", 0),
    ("x = 1\n", 6),                       # ASCII: four characters a token
    ("café", 3 + 4),                      # a Latin-1 letter is a BMP code point: a token
    ("中文", 8),                          # CJK: a token a character
    ("😀", 8),                            # above U+FFFF: two tokens
    ("𠀀𠮷", 16),                          # CJK Extension B
    ("\ud800", 4),                        # a lone high surrogate counts as a BMP code point
    ("\udc00a", 4 + 1),                   # a lone low surrogate too
    ("a\ud83d", 1 + 4),                   # a high surrogate at the end
]


def test_prompt_weight_ascii_bmp_and_supplementary():
    from crane_llm.prompt.build import prompt_weight

    for text, weight in WEIGHTS:
        assert prompt_weight(text) == weight, text
        assert estimate_tokens(text) == -(-weight // 4)
    # Two lone surrogates in a Python str weigh what the pair they spell weighs in JavaScript.
    assert prompt_weight("\ud83d\ude00") == prompt_weight("😀") == 8


def test_rare_cjk_text_is_estimated_at_two_tokens_a_character():
    ext_b = "".join(chr(0x20000 + i % 0xA6D6) for i in range(90_000))
    assert estimate_tokens(ext_b) == 180_000  # characters / 4 said 22,500
    assert estimate_tokens("中" * 90_000) == 90_000
    assert estimate_tokens("a" * 90_000) == 22_500


def test_prompt_weight_is_cheap_on_megabyte_texts():
    from crane_llm.prompt.build import prompt_weight

    text = "数据 data 𠮷\n" * 200_000  # 2 million code points, 200,000 lines
    assert prompt_weight(text) == 200_000 * (2 * 4 + 6 + 8 + 1)
    prompt = build_prompt([], text, "x", 1000)
    assert prompt["estimatedTokens"] <= 1000 and prompt["runtimeInfoCut"] > 0
