"""Model settings: one table of settings (table.py), each resolved on its own, first source found wins.

The order per setting is the README's ("Set up a model"): an explicit argument, the CRANE_LLM_*
variable, the provider's OPENAI_* variable (a `.env` fills in what the environment lacks),
~/.crane_llm/config.json (written by `set_api_key`), a Kaggle or Colab notebook secret (the key
only), the default. The server extension, the cell magic and the CLI all use `resolve_settings`
and its `Settings`. The key is never logged or printed: it is a `Secret`, masked in every repr,
and `public_json` leaves it out.

Cheap to import: nothing here imports openai or jupyter_server.
"""

from .budget import CheckBudget, resolve_check_budget
from .records import MASK, Secret, Setting, Spec
from .resolve import ENV_NAMES, OPENAI_URL_OVERRIDE, SECRET_NAMES, Settings, resolve_settings
from .sources import config_path, find_dotenv
from .store import set_api_key
from .table import CHECK_BUDGET_DEFAULT, CHECK_BUDGET_MAX, DEFAULT_MODEL, KERNEL_SPECS, SPECS, parse_seconds
from .urls import OPENAI_URL, host_of, is_local_url, without_credentials

__all__ = [
    "CHECK_BUDGET_DEFAULT", "CHECK_BUDGET_MAX", "CheckBudget", "KERNEL_SPECS", "parse_seconds", "resolve_check_budget",
    "DEFAULT_MODEL", "ENV_NAMES", "MASK", "OPENAI_URL", "OPENAI_URL_OVERRIDE", "SECRET_NAMES", "SPECS",
    "Secret", "Setting", "Settings", "Spec", "config_path", "find_dotenv", "host_of", "is_local_url",
    "resolve_settings", "set_api_key", "without_credentials",
]
