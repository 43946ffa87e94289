#!/usr/bin/env bash
# LiteLLM's proxy for the tests (the Responses API path with an enforced schema, in front of
# llama-server), in a virtual environment of its own, cached outside the checkout: its hundred-odd
# dependencies (fastapi, pydantic, its own openai pin...) stay out of .venv, and only the first
# run on a machine pays for the install (a minute or two; much longer on a busy machine).
#   scripts/litellm.sh          install what is missing, then print LITELLM=<the litellm command>
# The version is pinned: 1.108.7. Never 1.107.0 (that release was reported compromised).
# On failure it exits non-zero with the reason on stderr (the test fixture shows it).
set -euo pipefail
LITELLM_VERSION=1.108.7
CACHE=${CRANE_LLM_CACHE:-$HOME/.cache/crane-llm}
# The interpreter setup.sh uses, so setup and the test fixture find the same cached venv.
PY=${CRANE_PY:-python3.11}
"$PY" -c 'import sys' >/dev/null 2>&1 || PY=python3
fail() { echo "litellm.sh: $*" >&2; exit 1; }

PYVER=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])') || fail "$PY does not run"
VENV="$CACHE/litellm/litellm-$LITELLM_VERSION-py$PYVER"
BIN="$VENV/bin/litellm"

install_litellm() {
  # Built where it lives (a venv's scripts name their own path); a half-done install has no
  # matching version and is started over on the next run.
  rm -rf "$VENV"
  echo "litellm.sh: installing litellm[proxy]==$LITELLM_VERSION into $VENV" >&2
  "$PY" -m venv "$VENV" || fail "could not create a virtual environment with $PY"
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  "$VENV/bin/pip" install -q "litellm[proxy]==$LITELLM_VERSION" \
    2> >(grep -v "is ignored: it is neither a file nor a directory" >&2) \
    || fail "pip could not install litellm[proxy]==$LITELLM_VERSION"
}

mkdir -p "$CACHE/litellm"
exec 9>"$CACHE/litellm.lock"
flock 9
installed=$("$VENV/bin/python" -c 'from importlib.metadata import version; print(version("litellm"))' 2>/dev/null || true)
[ "$installed" = "$LITELLM_VERSION" ] && [ -x "$BIN" ] || install_litellm
# (No `litellm --version` here: it imports all of LiteLLM, tens of seconds on a busy machine; the
# fixture that starts the proxy reports any failure with LiteLLM's own words.)
[ -x "$BIN" ] || fail "the install left no $BIN"
echo "LITELLM=$BIN"
