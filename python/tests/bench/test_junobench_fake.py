"""`crane-llm bench junobench` on three dev cases against the local OpenAI-compatible server.

With --jobs 1 the calls go out in plan order (case by name; crashing then fixed version; with
then without runtime information; run 1..K), so the scripted answers below are, in that order,
the votes of the table in `VOTES`, and every metric is checked against a hand computation.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time

import pytest

from crane_llm.cli import main
from crane_llm_testing.fake_openai import verdict_text

DEV = "/work/shared/junobench/dev"
CASES = ["numpy_5", "pandas_9", "sklearn_3"]  # numpy/API misuse, pandas/data confusion, sklearn/implementation error

C = {"text": verdict_text(True, "crash", "ValueError", 1, [])}
N = {"text": verdict_text(False, "fine")}
U = {"text": "no idea"}

# (case, version, config) -> the three answers
VOTES = [
    ("numpy_5", "crash", "with", [C, C, N]),       # crash   -> TP
    ("numpy_5", "crash", "without", [N, N, C]),    # clean   -> FN
    ("numpy_5", "fixed", "with", [N, N, N]),       # clean   -> TN
    ("numpy_5", "fixed", "without", [C, C, C]),    # crash   -> FP
    ("pandas_9", "crash", "with", [C, U, N]),      # tie     -> undecided, clean -> FN
    ("pandas_9", "crash", "without", [C, C, C]),   # crash   -> TP
    ("pandas_9", "fixed", "with", [N, C, N]),      # clean   -> TN
    ("pandas_9", "fixed", "without", [N, N, C]),   # clean   -> TN
    ("sklearn_3", "crash", "with", [C, C, C]),     # crash   -> TP
    ("sklearn_3", "crash", "without", [U, U, U]),  # no vote -> undecided, clean -> FN
    ("sklearn_3", "fixed", "with", [C, N, C]),     # crash   -> FP
    ("sklearn_3", "fixed", "without", [N, N, N]),  # clean   -> TN
]

pytestmark = pytest.mark.skipif(not os.path.isdir(DEV), reason="the JunoBench dev half is not on this machine")


@pytest.fixture
def cases_dir(tmp_path):
    root = tmp_path / "cases"
    root.mkdir()
    for name in CASES:
        shutil.copytree(os.path.join(DEV, name), root / name)
    shutil.copy(os.path.join(DEV, "index.json"), root / "index.json")
    return str(root)


@pytest.fixture
def fake(settings_from_fake):
    return settings_from_fake


def bench(capsys, cases_dir, out, *extra):
    code = main(["bench", "junobench", cases_dir, "--out", out, "--runs", "3", *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_every_metric_matches_a_hand_computation(fake, cases_dir, tmp_path, capsys):
    fake.script(*[answer for *_, answers in VOTES for answer in answers])
    out = str(tmp_path / "out")
    code, stdout, err = bench(capsys, cases_dir, out, "--jobs", "1")
    assert code == 0, err
    assert len(fake.requests()) == 36

    # The requests went out in plan order, each with the right prompt.
    requests = [r["body"]["messages"][1]["content"] for r in fake.requests()]
    for i, (case, version, config, _) in enumerate(VOTES):
        for run in range(3):
            prompt = requests[i * 3 + run]
            assert ("# Current relevant runtime information:" in prompt) == (config == "with")
    pandas9_crash_with = requests[4 * 3]
    assert "df (pandas.core.frame.DataFrame): shape" in pandas9_crash_with

    result = json.load(open(os.path.join(out, "results.json")))
    with_ = result["model"]["configs"]["with"]
    without = result["model"]["configs"]["without"]
    # with:    TP numpy_5, sklearn_3; FN pandas_9 (tie); TN numpy_5, pandas_9; FP sklearn_3
    assert {k: with_["overall"][k] for k in ("tp", "fp", "tn", "fn", "n", "undecided")} == \
        {"tp": 2, "fp": 1, "tn": 2, "fn": 1, "n": 6, "undecided": 1}
    assert with_["overall"]["accuracy"] == pytest.approx(4 / 6)
    assert with_["overall"]["precision"] == pytest.approx(2 / 3)
    assert with_["overall"]["recall"] == pytest.approx(2 / 3)
    assert with_["overall"]["f1"] == pytest.approx(2 / 3)
    # without: TP pandas_9; FN numpy_5, sklearn_3 (no vote); FP numpy_5; TN pandas_9, sklearn_3
    assert {k: without["overall"][k] for k in ("tp", "fp", "tn", "fn", "n", "undecided")} == \
        {"tp": 1, "fp": 1, "tn": 2, "fn": 2, "n": 6, "undecided": 1}
    assert without["overall"]["accuracy"] == pytest.approx(0.5)
    assert without["overall"]["precision"] == pytest.approx(0.5)
    assert without["overall"]["recall"] == pytest.approx(1 / 3)
    assert without["overall"]["f1"] == pytest.approx(0.4)
    # per library and per root cause (one library per root cause among these three)
    assert {k: v["accuracy"] for k, v in with_["byLibrary"].items()} == {"numpy": 1.0, "pandas": 0.5, "sklearn": 0.5}
    assert {k: v["accuracy"] for k, v in without["byLibrary"].items()} == {"numpy": 0.0, "pandas": 1.0, "sklearn": 0.5}
    assert {k: v["accuracy"] for k, v in with_["byRootCause"].items()} == \
        {"API misuse": 1.0, "data confusion": 0.5, "implementation error": 0.5}
    assert with_["byLibrary"]["sklearn"]["f1"] == pytest.approx(2 / 3)  # TP + FP: precision 1/2, recall 1
    assert without["byLibrary"]["numpy"]["f1"] == 0.0

    # The product: the checks' certain KeyError on pandas_9's crashing cell replaces the model's tie.
    product = result["model"]["configs"]["product"]
    assert {k: product["overall"][k] for k in ("tp", "fp", "tn", "fn", "n", "undecided")} == \
        {"tp": 3, "fp": 1, "tn": 2, "fn": 0, "n": 6, "undecided": 0}
    assert product["overall"]["accuracy"] == pytest.approx(5 / 6)
    assert product["overall"]["precision"] == pytest.approx(3 / 4)
    assert product["overall"]["recall"] == 1.0
    assert product["overall"]["f1"] == pytest.approx(6 / 7)
    assert product["byChecks"] == 1
    assert product["byLibrary"]["pandas"]["accuracy"] == 1.0

    items = {(i["case"], i["version"], i["config"]): i for i in result["model"]["items"]}
    assert items[("pandas_9", "crash", "with")]["votes"] == {"crash": False, "undecided": True, "crashVotes": 1,
                                                              "cleanVotes": 1, "unreadable": 1}
    assert items[("numpy_5", "crash", "with")]["predictedException"] == "ValueError"

    # The checks track on the same cases: pandas_9's missing column is certain, nothing on fixed cells.
    checks = result["checks"]["figures"]
    assert (checks["cases"], checks["claimsOnCrashing"], checks["claimsOnFixed"]) == (3, 1, 0)
    assert [r["case"] for r in result["checks"]["records"] if r["crash"]] == ["pandas_9"]

    # The printed table shows the same figures.
    assert re.search(r"\| without runtime information \| 6 \| 0\.500 \| 0\.500 \| 0\.333 \| 0\.400 \| 1/1/2/2 \| 1 \|", stdout)
    assert re.search(r"\| with runtime information \| 6 \| 0\.667 \| 0\.667 \| 0\.667 \| 0\.667 \| 2/1/2/1 \| 1 \|", stdout)
    assert re.search(r"\| with runtime information, built-in checks first \| 6 \| 0\.833 \| 0\.750 \| 1\.000 \| 0\.857 \| 3/1/2/0 \| 0 \|", stdout)
    assert "| numpy | 2 | 0.000 | 1.000 |" in stdout
    assert open(os.path.join(out, "summary.md")).read() in stdout

    # The HTML report is self-contained: inline SVG bars, nothing fetched.
    page = open(os.path.join(out, "report.html")).read()
    assert page.count("<svg") >= 4
    assert not re.search(r"<script|\bsrc=|\bhref=|@import|url\(", page)
    assert "Accuracy per library" in page and "<title>without runtime information: 0.00</title>" in page


def test_resumes_from_its_cache_and_retries_failed_calls(fake, cases_dir, tmp_path, capsys):
    out = str(tmp_path / "out")
    fake.set_default(N)
    fake.script({"preset": "model_not_found"})  # not retried by the SDK: the call fails, is not cached
    code, stdout, err = bench(capsys, cases_dir, out, "--cases", "numpy_5", "--jobs", "1")
    assert code == 0
    assert len(fake.requests()) == 12
    assert "1 failed" in stdout and "404" in err
    assert len(os.listdir(os.path.join(out, "cache"))) == 11

    # "Interrupted": two answers lost. The next run asks only for those and the failed one.
    cache = os.path.join(out, "cache")
    for name in sorted(os.listdir(cache))[:2]:
        os.remove(os.path.join(cache, name))
    fake.reset()
    fake.set_default(N)
    code, stdout, _ = bench(capsys, cases_dir, out, "--cases", "numpy_5", "--jobs", "1")
    assert code == 0
    assert len(fake.requests()) == 3
    assert "Calls: 12 (9 answered from the cache, 0 failed)" in stdout
    # A changed model is a different experiment: nothing is taken from the cache.
    fake.reset()
    code, _, _ = bench(capsys, cases_dir, out, "--cases", "numpy_5", "--model", "another", "--runs", "1")
    assert len(fake.requests()) == 4


def test_jobs_run_model_calls_concurrently(fake, cases_dir, tmp_path, capsys):
    fake.set_default(dict(N, delay=0.5))
    code, _, _ = bench(capsys, cases_dir, str(tmp_path / "out"), "--cases", "numpy_5", "--runs", "1", "--jobs", "4")
    assert code == 0
    times = sorted(r["time"] for r in fake.requests())
    assert len(times) == 4
    # All four were sent before the first answer (0.5 s) came back.
    assert times[-1] - times[0] < 0.4


def test_no_llm_runs_only_the_checks_track(fake, cases_dir, tmp_path, capsys):
    code, stdout, _ = bench(capsys, cases_dir, str(tmp_path / "out"), "--no-llm")
    assert code == 0
    assert fake.requests() == []
    assert "## Checks track" in stdout and "## Model track" not in stdout


def test_no_model_configured_fails_the_model_track_clearly(fake, cases_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("CRANE_LLM_MODEL")
    code, stdout, err = bench(capsys, cases_dir, str(tmp_path / "out"))
    assert code == 2
    assert "the model track could not run: No model is configured" in err
    assert "## Checks track" in stdout


def test_an_empty_directory_is_an_error(fake, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = bench(capsys, str(empty), str(tmp_path / "out"), "--no-llm")
    assert code == 2 and "no JunoBench-format case" in err
    code, _, err = bench(capsys, str(tmp_path / "missing"), str(tmp_path / "out"), "--no-llm")
    assert code == 2 and "no such directory" in err


def test_responses_api_without_base_url_and_the_key_stays_out_of_every_output(fake, cases_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("CRANE_LLM_BASE_URL")
    monkeypatch.setenv("CRANE_LLM_OPENAI_URL", fake.base_url)  # where "OpenAI" is, for tests
    monkeypatch.setenv("CRANE_LLM_API_KEY", "sk-test-SECRET-123")
    out = str(tmp_path / "out")
    code, stdout, err = bench(capsys, cases_dir, out, "--cases", "pandas_9", "--runs", "1",
                              "--price-in", "1.25", "--price-out", "10")
    assert code == 0, err
    requests = fake.requests()
    assert len(requests) == 4 and all(r["path"].endswith("/responses") for r in requests)
    # The Responses API reports usage (the fake server: 100 tokens in per call), so a cost is given.
    summary = json.load(open(os.path.join(out, "results.json")))["model"]["usage"]
    assert summary["callsWithUsage"] == 4 and summary["inputTokens"] == 400, summary
    assert summary["costUsd"] == round(400 / 1e6 * 1.25 + summary["outputTokens"] / 1e6 * 10, 6)
    assert requests[0]["headers"]["authorization"] == "Bearer sk-test-SECRET-123"
    written = stdout + err + "".join(open(os.path.join(root, f), errors="replace").read()
                                     for root, _, files in os.walk(out) for f in files)
    assert "SECRET" not in written


def test_chat_completions_usage_reaches_every_report(fake, cases_dir, tmp_path, capsys):
    # A base_url: Chat Completions, whose stream reports usage in a last chunk (asked for with
    # stream_options); the fake says 100 prompt tokens per call.
    out = str(tmp_path / "out")
    code, stdout, err = bench(capsys, cases_dir, out, "--cases", "pandas_9", "--runs", "1")
    assert code == 0, err
    requests = fake.requests()
    assert len(requests) == 4 and all(r["path"].endswith("/chat/completions") for r in requests)
    assert all(r["body"]["stream_options"] == {"include_usage": True} for r in requests)
    summary = json.load(open(os.path.join(out, "results.json")))["model"]["usage"]
    assert summary["callsWithUsage"] == 4 and summary["inputTokens"] == 400 and summary["outputTokens"] >= 4, summary
    said = "Tokens reported by the provider: %d in, %d out (4 of 4 calls reported usage)" % (400, summary["outputTokens"])
    assert said in open(os.path.join(out, "summary.md")).read() and said in stdout
    assert "tokens reported: 400 in, %d out" % summary["outputTokens"] in open(os.path.join(out, "report.html")).read()


def test_exception_named_by_the_model_is_counted(fake, cases_dir, tmp_path, capsys):
    # numpy_5 raised ValueError, pandas_9 KeyError: the model says ValueError every time it says crash.
    fake.set_default(C)
    out = str(tmp_path / "out")
    code, stdout, _ = bench(capsys, cases_dir, out, "--cases", "numpy_5,pandas_9", "--runs", "1")
    assert code == 0
    named = json.load(open(os.path.join(out, "results.json")))["model"]["configs"]["with"]["exceptionNamed"]
    assert named == {"caught": 2, "rightType": 1}
    assert "with runtime information: 1 of 2 caught crashes" in stdout


def test_an_interrupted_run_keeps_its_answers_and_resumes(fake, cases_dir, tmp_path):
    from crane_llm.bench.junobench.cases import load_cases
    from crane_llm.bench.junobench.model_track import Cache, plan, run_jobs
    from crane_llm.cli.model import resolve_settings

    fake.set_default(dict(N, delay=0.05))
    settings = resolve_settings(None)
    jobs = plan(load_cases(cases_dir, ["numpy_5"]), settings, runs=2)  # 8 calls
    cache = Cache(str(tmp_path / "cache"))
    seen = []

    def interrupt_after_three(job, answer, cached):
        seen.append(job.key)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_jobs(jobs, settings, cache, 2, False, interrupt_after_three)
    time.sleep(0.5)  # a call that was in flight finishes in its worker and is kept
    kept = len(os.listdir(cache.directory))
    asked_before = len(fake.requests())
    assert 3 <= kept == asked_before < 8  # every answer that came in is cached; unsent calls were dropped

    again = []
    answers = run_jobs(jobs, settings, cache, 2, False, lambda job, answer, cached: again.append(cached))
    assert len(answers) == 8 and all(a["vote"] is False for a in answers.values())
    assert again.count(True) == kept
    assert len(fake.requests()) - asked_before == 8 - kept


def test_the_paper_prompt_by_default_and_the_product_prompt_on_request(fake, cases_dir, tmp_path, capsys):
    def instructions(request):
        body = request["body"]
        return body.get("instructions") or body["messages"][0]["content"]

    code, _, _ = bench(capsys, cases_dir, str(tmp_path / "paper"), "--cases", "numpy_5", "--runs", "1")
    assert code == 0
    assert fake.requests() and not any('"fix"' in instructions(r) for r in fake.requests())
    fake.reset()
    fake.set_default(N)
    code, _, _ = bench(capsys, cases_dir, str(tmp_path / "product"), "--cases", "numpy_5", "--runs", "1", "--prompt", "product")
    assert code == 0
    assert fake.requests() and all('"fix": string or null' in instructions(r) for r in fake.requests())


def test_context_slice_sends_only_the_cells_the_target_depends_on(fake, tmp_path, capsys):
    # torch_9's target calls show_batch(dataloader): the cells defining the GAN's Generator and
    # Discriminator classes feed nothing it uses, the imports, the dataloader and show_batch do.
    root = tmp_path / "cases"
    root.mkdir()
    shutil.copytree(os.path.join(DEV, "torch_9"), root / "torch_9")
    fake.set_default(N)

    def sent(context):
        fake.reset()
        fake.set_default(N)
        code, stdout, err = bench(capsys, str(root), str(tmp_path / context), "--runs", "1", "--context", context)
        assert code == 0, err
        return [r["body"]["messages"][1]["content"] for r in fake.requests()], stdout

    everything, _ = sent("all")
    sliced, stdout = sent("slice")
    assert len(everything) == len(sliced) == 4
    for prompt in everything:
        assert "class Generator(nn.Module)" in prompt and "class Discriminator(nn.Module)" in prompt
    for prompt in sliced:
        assert "class Generator(nn.Module)" not in prompt and "class Discriminator(nn.Module)" not in prompt
        assert "import torch" in prompt and "def show_batch(dl)" in prompt and "criterion = nn.BCEWithLogitsLoss()" in prompt
    assert sum(map(len, sliced)) < 0.8 * sum(map(len, everything))
    # The summary compares the two sizes on the same cases, with no call needed.
    assert "## Prompt size: --context slice against all (paper prompt)" in stdout
    row = re.search(r"\| without runtime information \| 2 \| 10 \| 6 \| (\d+) \| \d+ \| (\d+) \| (\d+) \| 0\.\d\dx \| 0\.\d\dx \|", stdout)
    assert row, stdout
    # Inside the kept cells, what the target does not depend on is left out, and the prompt says so.
    for prompt in sliced:
        assert re.search(r"^# \.\.\.$", prompt, re.M), prompt
    left_out, whole, cut = (int(x) for x in row.groups())
    assert left_out > 0 and cut < whole
