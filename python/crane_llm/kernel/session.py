"""What `%load_ext crane_llm` and JupyterLab's silent start-up do in a kernel."""


def install(ipython) -> None:
    from ..lineage import recorder

    recorder.install(ipython)


def uninstall(ipython) -> None:
    from ..lineage import recorder

    recorder.uninstall(ipython)
