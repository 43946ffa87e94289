"""Benchmarks runnable from the command line (`crane-llm bench ...`) and importable by tests."""
