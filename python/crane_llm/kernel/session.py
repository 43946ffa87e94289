"""What `%load_ext crane_llm` and JupyterLab's silent start-up do in a kernel.

Both may happen in the same kernel, and JupyterLab repeats its call at every kernel start, so
`install` is idempotent: one recorder, one `%%crane_llm`, one staleness callback.
"""


def install(ipython) -> None:
    from ..lineage import recorder
    from ..magic import register

    recorder.install(ipython)
    if ipython is not None and hasattr(ipython, "register_magic_function"):
        register(ipython)
    # Importing the checker costs 0.1-0.4 s; pay it here, at kernel start, not in the first check.
    import crane_llm.checks  # noqa: F401


def uninstall(ipython) -> None:
    from ..lineage import recorder
    from ..magic import unregister

    recorder.uninstall(ipython)
    if ipython is not None and hasattr(ipython, "register_magic_function"):
        unregister(ipython)
