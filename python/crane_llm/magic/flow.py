"""One `%%crane_llm` check: facts from the kernel, then (when needed) the prompt and the model.

Every stage calls the module that owns it (kernel.entry.gather, prompt.build_prompt,
provider.call_model, prompt.to_verdict, settings, lineage); this module only sequences them and
reports each step as it happens through `emit`. A keyboard interrupt ends the check as
"cancelled", never as a traceback.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional

from ..policy import SwitchValues, capped, current_policy
from . import state as st
from .disclosure import disclosure_text, policy_note, preview_text
from .options import Options
from ..switches import checks_run
from ..plain_text import strings_without_secrets
from ..settings.urls import url_password
from ..present import budget_detail, certain_crash_verdict_of, checks_detail, nothing_certain_verdict, token_usage

Emit = Callable[[st.State], None]
RAW_REDRAW_SECONDS = 0.2  # streamed text redraws the display at most this often


class Check:
    """Runs one check and keeps its latest state; `emit` is called with every new state."""

    def __init__(self, source: str, options: Options, shell: Any, emit: Emit, wiring: Any = None):
        from . import wiring as default_wiring

        self.source = source
        self.options = options
        self.shell = shell
        self.emit = emit
        self.wiring = wiring or default_wiring
        self.state = st.started()
        self.facts: Optional[Dict[str, Any]] = None
        self.notes: List[str] = []  # where the settings came from, shown with the verdict

    def _update(self, new: st.State) -> st.State:
        self.state = new
        self.emit(new)
        return new

    def run(self) -> st.State:
        try:
            return self._run()
        except KeyboardInterrupt:
            return self._update(st.cancelled(self.state))
        except Exception as exc:  # a bug of ours must not cost the user a traceback in their notebook
            return self._update(st.failed(self.state, "CRANE-LLM failed: %s: %s" % (type(exc).__name__, exc), "internal"))

    def _run(self) -> st.State:
        from ..kernel.entry import gather

        opts = self.options
        self._apply_policy()
        checks_on = checks_run(opts.use_llm, opts.include_runtime_info)
        self._update(st.step_started(
            self.state, "checks",
            "Built-in checker on the live kernel state" if checks_on else "Reading the executed cells from the kernel"))
        request = {
            "protocol": 1,
            "source": self.source,
            "cellId": None,
            "useLlm": opts.use_llm,
            "includeRuntimeInfo": opts.include_runtime_info,
        }
        if opts.budget is not None:
            request["budgetSeconds"] = opts.budget
        namespace = self.shell.user_ns if self.shell is not None else {}
        try:
            facts = gather(request, namespace, self.shell)
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # the user sees a message, the notebook loses nothing
            return self._update(st.failed(self.state, "The kernel side of CRANE-LLM failed: %s: %s" % (type(exc).__name__, exc), "kernel"))
        self.facts = facts
        checks = facts["checks"]
        if checks["ran"]:
            self._update(st.step_ended(self.state, "checks", "done", checks_detail(checks) + budget_detail(facts)))
        else:
            self._update(st.step_ended(
                self.state, "checks", "skipped",
                "built-in checks skipped: runtime information is off, so the model gets the code alone"
                + budget_detail(facts)))
        if checks.get("crash"):
            return self._conclude(certain_crash_verdict_of(facts))
        if not opts.use_llm:
            return self._conclude(nothing_certain_verdict())
        return self._ask_model(facts, checker_ran_first=bool(checks["ran"]))

    def _apply_policy(self) -> None:
        """The administrator's ceiling (CRANE_LLM_POLICY) over the magic line's switches."""
        opts = self.options
        policy = current_policy()
        wanted = SwitchValues(opts.use_llm, opts.include_runtime_info, opts.include_values)
        allowed = capped(wanted, policy)
        if allowed != wanted:
            opts.use_llm, opts.include_runtime_info, opts.include_values = allowed
            self.notes.append(policy_note(policy))

    def _ask_model(self, facts: Dict[str, Any], checker_ran_first: bool) -> st.State:
        from ..prompt import build_prompt, to_verdict
        from ..provider import call_model, settings_call_args

        try:
            settings = self.wiring.resolve_settings(self.options.model)
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            return self._update(st.failed(self.state, "CRANE-LLM could not read its model settings: %s" % (exc,), "internal"))
        if settings.problem:
            return self._update(st.failed(self.state, settings.problem, "settings"))
        model = settings.model.value
        if not model:
            return self._update(st.failed(
                self.state,
                "No model is configured. Name one on the magic line (%%crane_llm gpt-5-mini), or set it with "
                "crane_llm.set_api_key(model=...) or the CRANE_LLM_MODEL variable.",
                "no-key",
            ))
        if settings.key_required and not settings.api_key.value and not self.options.preview:
            return self._update(st.failed(self.state, no_key_message(settings.provider_host, checker_ran_first), "no-key"))
        self.notes.extend(_source_notes(settings))

        self._update(st.step_started(
            self.state, "prompt",
            "Building the prompt (code and runtime information)" if self.options.include_runtime_info
            else "Building the prompt (code only)"))
        include_values = self.options.include_values and settings.include_values.value is not False
        parts = self.wiring.prompt_input(facts, self.source,
                                         self.options.include_runtime_info, include_values)
        disclosure = parts["disclosure"]
        prompt = build_prompt(parts["executed"], parts["runtime_info_text"], parts["target"])
        # (a variable may hold the configured key itself, whatever its shape or name)
        prompt = strings_without_secrets(prompt, [settings.api_key.value or "", url_password(settings.endpoint)])
        self._update(st.prompt_built(self.state, prompt["text"]))
        detail = "about %d tokens" % prompt["estimatedTokens"]
        if prompt["dropped"]:
            detail += "; %d oldest cells left out to fit" % len(prompt["dropped"])
        if prompt["runtimeInfoCut"]:
            detail += "; %d lines of runtime information left out to fit" % prompt["runtimeInfoCut"]
        detail += "; " + disclosure_text(disclosure)
        self._update(st.step_ended(self.state, "prompt", "done", detail))
        if self.options.preview:
            print(preview_text(settings, prompt, disclosure))
            self._update(st.step_started(self.state, "model", "Preview only: nothing was sent"))
            self._update(st.step_ended(self.state, "model", "skipped", "--preview: the request is printed above the verdict area; nothing was sent"))
            return self._update(st.cancelled(self.state))

        where = settings.provider_host or "the provider"
        self._update(st.step_started(self.state, "model", "Waiting for %s at %s" % (model, where)))
        last_draw = [time.monotonic()]
        received = [0]  # streamed pieces: about one token each (see answering_label)

        def on_text(piece: str) -> None:
            received[0] += 1
            self.state = st.raw_received(self.state, piece)
            now = time.monotonic()
            if now - last_draw[0] >= RAW_REDRAW_SECONDS and self.state["phase"] == "running":
                last_draw[0] = now
                self.state = st.step_started(self.state, "model", answering_label(model, where, received[0]))
                self.emit(self.state)

        result = call_model(prompt, model=model, on_text=on_text, **settings_call_args(settings))
        # The final text is what the model said, whatever the redraws showed.
        self.state = dict(self.state, raw=result.get("raw") or "")
        if not result.get("problem"):  # the model answered: its usage is shown, even when not reported
            self.state = st.usage_reported(self.state, token_usage(result.get("usage")))
        if result.get("problem"):
            return self._update(st.failed(self.state, result["problem"]["message"], "provider"))
        parsed = result["parsed"]
        asked = st.step_started(self.state, "model", asked_label(model, where))
        self._update(st.step_ended(asked, "model", "done", answered_detail(result, received[0])))
        return self._conclude(to_verdict(parsed, model, checker_ran_first))

    def _conclude(self, verdict: Dict[str, Any]) -> st.State:
        self._update(st.concluded(self.state, verdict))
        if verdict["kind"] in ("certain-crash", "predicted-crash") and self.facts is not None:
            try:
                items = self.wiring.origin_items(self.facts, verdict, self.shell)
            except KeyboardInterrupt:
                raise
            except Exception:  # the verdict stands without its origin list
                items = []
            if items:
                self._update(st.origin_found(self.state, items))
        return self.state


def answering_label(model: str, where: str, pieces: int) -> str:
    """The model step's label while the answer streams (twin of run-check.ts answeringLabel). The
    count is of streamed pieces, an estimate of the tokens: OpenAI, llama.cpp and Ollama send one
    token a piece, other servers may group several; only the provider's count once answered is exact."""
    return "%s at %s is answering: about {:,} token%s so far".format(pieces) % (model, where, "" if pieces == 1 else "s")


def asked_label(model: str, where: str) -> str:
    """The model step's label once the answer is in (twin of run-check.ts askedLabel): no longer
    the running count of streamed pieces, which would read as stuck beside the provider's count."""
    return "Asked %s at %s" % (model, where)


def answered_detail(result: Dict[str, Any], pieces: int) -> str:
    """"answered (412 tokens)", the provider's count, or why the answer is not a verdict (twin of
    run-check.ts); a provider that reports no usage leaves the estimate, "about 412 tokens"."""
    usage = result.get("usage") or {}
    reported = usage.get("output_tokens") or usage.get("completion_tokens")
    count = "{:,} tokens".format(reported) if reported else "about {:,} tokens".format(pieces) if pieces else ""
    said = "answered (%s)" % count if count else "answered"
    if result.get("cutAtLimit"):
        return "cut at the output limit of {:,} tokens".format(result["cutAtLimit"])
    if result["parsed"]["kind"] == "unreadable":
        return "%s, but not with a readable verdict" % said
    return said


def no_key_message(host: str, checks_ran: bool) -> str:
    message = (
        "No API key was found for %s. Set one in any notebook cell with "
        '`import crane_llm; crane_llm.set_api_key("sk-...")` (or the CRANE_LLM_API_KEY environment variable; '
        "on Kaggle and Colab, a notebook secret named CRANE_LLM_API_KEY), then check again; "
        "or use %%%%crane_llm --no-llm to run the built-in checks only." % (host or "the provider")
    )
    if checks_ran:
        message += " The built-in checks already ran and found no certain crash."
    return message


def _source_notes(settings: Any) -> List[str]:
    """"Model gpt-5 from CRANE_LLM_MODEL; API key from the Kaggle secret CRANE_LLM_API_KEY" (no key
    text), after any file that could not be read."""
    notes = list(settings.warnings)
    if settings.model.value:
        said = settings.model.label
        if settings.model.source == "default":
            said = "the default"
        elif settings.model.source == "argument":
            said = "the %%crane_llm line"
        notes.append("Model %s from %s." % (settings.model.value, said))
    if settings.api_key.value:
        notes.append("API key from %s." % settings.api_key.label)
    if settings.base_url.value:
        notes.append("base_url from %s." % settings.base_url.label)
    api = "the Responses API" if settings.api_kind == "responses" else "Chat Completions"
    if settings.api.source == "default":
        notes.append("%s (the default rule: %s)." % (api, "a base_url" if settings.base_url.value else "no base_url"))
    else:
        notes.append("%s, as api=%s from %s says." % (api, settings.api.value, settings.api.label))
    if settings.max_output_tokens.source != "default":
        notes.append("Output limit {:,} tokens from {}.".format(settings.max_output_tokens.value, settings.max_output_tokens.label))
    return notes
