"""A failure a host reports as a sentence rather than a traceback: `kind` names it for programs
(the wire's problem kinds: "not-installed", "kernel", "timeout", ...), `message` says it to people.
The kernel request (kernel/request.py), the command line and the MCP tool raise and catch this one
type."""


class Problem(Exception):
    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message
