"""A stand-in for `google.colab.userdata`, with the same interface and failure modes.

Colab's `userdata.get(key)` returns a secret's value, raises `SecretNotFoundError` when no secret
has that name and `NotebookAccessError` when it exists but "Notebook access" is switched off.
Secrets come from the JSON in FAKE_COLAB_SECRETS: {"NAME": "value"}, or {"NAME": null} for a
secret whose notebook access is off.
"""

import json
import os


class SecretNotFoundError(Exception):
    def __init__(self, key):
        super().__init__("Secret %s does not exist." % key)


class NotebookAccessError(Exception):
    def __init__(self, key):
        super().__init__("Notebook does not have access to secret %s" % key)


def get(key):
    secrets = json.loads(os.environ.get("FAKE_COLAB_SECRETS") or "{}")
    if key not in secrets:
        raise SecretNotFoundError(key)
    if secrets[key] is None:
        raise NotebookAccessError(key)
    return secrets[key]
