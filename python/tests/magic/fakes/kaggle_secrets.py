"""A stand-in for Kaggle's `kaggle_secrets` module, with the same interface and failure modes.

On Kaggle, `UserSecretsClient().get_secret(label)` returns the value of a secret attached to the
notebook and raises `BackendError` for a label that is missing or not ticked for this notebook.
Here the secrets come from the JSON in FAKE_KAGGLE_SECRETS (so a subprocess kernel sees them too);
FAKE_KAGGLE_CALLS, when set, is a file each lookup appends its label to.
"""

import json
import os


class BackendError(Exception):
    pass


class UserSecretsClient:
    def get_secret(self, label):
        calls = os.environ.get("FAKE_KAGGLE_CALLS")
        if calls:
            with open(calls, "a") as f:
                f.write(label + "\n")
        secrets = json.loads(os.environ.get("FAKE_KAGGLE_SECRETS") or "{}")
        if label not in secrets:
            raise BackendError("Unexpected response from the service. Response: {'errors': ['No user secrets exist for kernel id 1 and label %s'], 'error': {'code': 5}, 'wasSuccessful': False}." % label)
        return secrets[label]
