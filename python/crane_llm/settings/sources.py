"""Where settings are read from: the environment, a `.env` file, ~/.crane_llm/config.json, and the
Kaggle and Colab notebook secrets. Reading never raises: a file that cannot be read becomes a
warning naming it, and its settings are simply not found.
"""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

# name -> (value, source, label): one variable as found in the environment or a .env file.
Found = Dict[str, Tuple[str, str, str]]


# Settings files larger than this are not read (a check reads the settings each time it runs).
MAX_SETTINGS_FILE_BYTES = 1 << 20


def read_small_file(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_SETTINGS_FILE_BYTES. Anything else raises OSError
    with a reason, without blocking: a FIFO or a device in a file's place would hold a read forever."""
    fd = os.open(str(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(0, "it is not a regular file")
        if info.st_size > MAX_SETTINGS_FILE_BYTES:
            raise OSError(0, "it is larger than %d KB" % (MAX_SETTINGS_FILE_BYTES >> 10))
        chunks, left = [], MAX_SETTINGS_FILE_BYTES + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > MAX_SETTINGS_FILE_BYTES:
            raise OSError(0, "it is larger than %d KB" % (MAX_SETTINGS_FILE_BYTES >> 10))
        return data
    finally:
        os.close(fd)


def config_path(home: Optional[Path] = None) -> Path:
    return (home or Path.home()) / ".crane_llm" / "config.json"


class ConfigUnreadable(Exception):
    """config.json exists but its settings cannot be used; the message says why, naming the file."""


def read_config(path: Path) -> Dict[str, Any]:
    """The settings in config.json: {} when there is no file; ConfigUnreadable when it is unusable."""
    try:
        return _read_config(path)
    except OSError as exc:  # a folder we may not look into, and the like
        raise ConfigUnreadable("%s could not be read (%s): its settings are ignored." % (path, exc.strerror or exc))


def _read_config(path: Path) -> Dict[str, Any]:
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise ConfigUnreadable(
            "%s is a file, but CRANE-LLM keeps its settings in a folder of that name; move the file "
            "away to use crane_llm.set_api_key." % folder)
    if not path.exists() and not path.is_symlink():
        return {}
    if path.is_dir():
        raise ConfigUnreadable("%s is a folder, not a file: CRANE-LLM ignores it; remove it to save settings there." % path)
    foreign = _controlled_by_someone_else(path)
    if foreign:
        raise ConfigUnreadable("%s %s: its settings are ignored (whoever controls it could send your API key to a "
                               "server of theirs)." % (path, foreign))
    try:
        text = read_small_file(path).decode("utf-8")
    except OSError as exc:
        raise ConfigUnreadable("%s could not be read (%s): its settings are ignored." % (path, exc.strerror or exc))
    except UnicodeDecodeError:
        raise ConfigUnreadable("%s is not UTF-8 text: its settings are ignored until it is fixed." % path)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # (arrays nested past the parser's depth: RecursionError)
        raise ConfigUnreadable("%s is not valid JSON (%s): its settings are ignored until it is fixed." % (path, exc))
    if not isinstance(data, dict):
        raise ConfigUnreadable("%s does not hold a JSON object: its settings are ignored until it is fixed." % path)
    return data


def _controlled_by_someone_else(path: Path) -> str:
    """Why another user could decide what config.json says, or ''. A symbolic link is followed (a
    dotfiles manager links the file from elsewhere), but the link, the file it leads to and the
    folder holding the link must all be the user's own, and the file not writable by everyone."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: no owners to compare
        return ""
    me = getuid()
    try:
        link, target, folder = os.lstat(path), os.stat(path), os.stat(path.parent)
    except OSError:
        return ""  # the read that follows says what is wrong
    if link.st_uid != me or folder.st_uid != me:
        return "belongs to another user"
    if target.st_uid != me:
        return "is a link to a file of another user"
    if target.st_mode & 0o002:
        return "can be changed by every user of this machine"
    return ""


def find_dotenv(start: Optional[str] = None) -> Optional[Path]:
    """The nearest `.env` in `start` (default: the working directory) or any directory above."""
    here = Path(start or os.getcwd()).resolve()
    for directory in [here, *here.parents]:
        candidate = directory / ".env"
        if candidate.is_file():
            return candidate
    return None


def environment(names: Iterable[str], cwd: Optional[str], environ: Optional[Mapping[str, str]],
                warnings: List[str]) -> Found:
    """Our variables from the environment; the nearest .env fills only what the environment lacks."""
    env = os.environ if environ is None else environ
    found: Found = {}
    names = list(names)
    for name in names:
        if env.get(name):
            found[name] = (env[name], "env", "environment variable %s" % name)
    missing = [n for n in names if n not in found]
    path = find_dotenv(cwd) if missing else None
    if path is None:
        return found
    values = _dotenv_values(path, warnings, missing)
    for name in missing:
        if values.get(name):
            found[name] = (str(values[name]), "dotenv", "%s in %s" % (name, path))
    return found


def _dotenv_values(path: Path, warnings: List[str], names: List[str]) -> Mapping[str, Optional[str]]:
    from dotenv import dotenv_values  # python-dotenv, only when a .env exists

    try:
        text = read_small_file(path).decode("utf-8")
    except UnicodeDecodeError:
        warnings.append("%s is not UTF-8 text: CRANE-LLM ignores its variables until it is saved as UTF-8." % path)
        return {}
    except OSError as exc:
        warnings.append("%s could not be read (%s): CRANE-LLM ignores its variables." % (path, exc.strerror or exc))
        return {}
    return dotenv_values(stream=io.StringIO(_lines_setting(text, names)))


def _lines_setting(text: str, names: List[str]) -> str:
    """What python-dotenv needs to read of `text` to give `names` their values: none when no name
    appears, else the lines that set them when each is whole on its line (no quote left open
    anywhere, no `${...}` to expand), else all of it. A `.env` of megabytes takes python-dotenv
    seconds, and the kernel reads the file on every check."""
    if not any(name in text for name in names):
        return ""
    lines = text.splitlines()
    if "${" in text or any(line.count('"') % 2 or line.count("'") % 2 for line in lines):
        return text
    kept = []
    for line in lines:
        statement = line.lstrip()
        if statement.startswith("export "):
            statement = statement[len("export "):].lstrip()
        if any(statement.startswith(name) and statement[len(name):].lstrip().startswith("=") for name in names):
            kept.append(line)
    return "\n".join(kept)


def _kaggle_secret(name: str) -> Optional[str]:
    try:
        from kaggle_secrets import UserSecretsClient  # type: ignore
    except Exception:
        return None
    try:
        value = UserSecretsClient().get_secret(name)
    except Exception:  # missing, or not attached to this notebook: simply not found
        return None
    return value or None


def _colab_secret(name: str) -> Optional[str]:
    try:
        from google.colab import userdata  # type: ignore
    except Exception:
        return None
    try:
        value = userdata.get(name)
    except Exception:  # SecretNotFoundError, NotebookAccessError, or no Colab session
        return None
    return value or None


# (source, what it is called for people, reader), in the order they are asked.
SECRET_STORES: List[Tuple[str, str, Callable[[str], Optional[str]]]] = [
    ("kaggle", "Kaggle secret", _kaggle_secret),
    ("colab", "Colab secret", _colab_secret),
]
