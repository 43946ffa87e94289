"""Execution recorder. Placeholder until the lineage work lands: nothing is recorded yet."""


def current(shell):
    return None


def install(shell):
    return None


def uninstall(shell):
    return None
