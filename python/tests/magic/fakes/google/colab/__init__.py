"""A stand-in for the `google.colab` package: only `userdata`, which CRANE-LLM reads."""
