"""The cells this kernel has executed, in the order they ran: the execution log the reply carries."""

from typing import Any

from ..lineage import recorder
from ..lineage.log import ExecutionLog, Run


def execution_log(shell: Any) -> ExecutionLog:
    """The recorder's log (it knows cell ids and what each run did); without the recorder, a log of
    IPython's input history, known from the code only. The reply carries this one list of cells:
    the prompt's executed cells are read from it (`executed_cells` in libs/prompt and its twin)."""
    log = recorder.current(shell)
    if log is not None:
        return log
    log = ExecutionLog()
    for count, code in enumerate(getattr(shell, "user_ns", {}).get("In", [])[1:], start=1):
        if isinstance(code, str) and code.strip():
            log.add(Run(count, None, code, False))
    return log
