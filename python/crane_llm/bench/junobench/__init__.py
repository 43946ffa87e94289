"""The CRANE-LLM paper's experiment on JunoBench-format cases, plus a track for the built-in checks.

`run(options)` (runner.py) is the whole benchmark; `crane-llm bench junobench DIR` calls it.
"""
