"""`set_api_key`: remembering the model settings in ~/.crane_llm/config.json, safely.

The file is readable by its owner alone (0600 in a 0700 folder) from its first byte. Writing never
follows a symbolic link: the folder and the file must be real, the new content goes to a temporary
file created exclusively next to the target, then replaces it in one rename. A config.json that
cannot be read is kept under another name, never silently overwritten.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional

from .resolve import resolve_settings
from .sources import ConfigUnreadable, config_path, read_config

_SAID = {"api_key": "the API key", "base_url": "the base_url", "model": "the model", "api": "the api",
         "max_output_tokens": "the output limit"}


class CannotSave(Exception):
    """Why the settings could not be written; the message names the path."""


def _private_folder(folder: Path) -> None:
    """Make sure `folder` is a real directory of ours, 0700: never a link, never a file."""
    if folder.is_symlink():
        raise CannotSave("%s is a symbolic link; CRANE-LLM keeps the key only in a real folder. "
                         "Replace the link with a folder." % folder)
    if folder.exists() and not folder.is_dir():
        raise CannotSave("%s is a file, but CRANE-LLM keeps its settings in a folder of that name. "
                         "Move the file away, then try again." % folder)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        # Opened without following a link, so the mode is set on this very folder.
        fd = os.open(str(folder), os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise CannotSave("%s could not be created or opened (%s)." % (folder, exc.strerror or exc))
    try:
        os.fchmod(fd, 0o700)
    except OSError:
        pass  # a folder we may not chmod (another owner) still holds a 0600 file
    finally:
        os.close(fd)


def _write_private(path: Path, data: Dict[str, Any]) -> None:
    _private_folder(path.parent)
    if path.is_symlink():
        raise CannotSave("%s is a symbolic link; CRANE-LLM does not write the key through links. "
                         "Replace it with a regular file." % path)
    if path.is_dir():
        raise CannotSave("%s is a folder, not a file. Remove it, then try again." % path)
    # mkstemp creates the file exclusively (O_EXCL), 0600 from the start, in the target's folder.
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=".config.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def _keep_aside(path: Path) -> Path:
    """Rename an unreadable config.json to a free name next to it, and say where it went."""
    n = 0
    while True:
        kept = path.with_name("%s.unreadable%s" % (path.name, "" if n == 0 else "-%d" % n))
        if not os.path.lexists(kept):
            break
        n += 1
    os.rename(path, kept)
    return kept


def _listing(items: List[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def set_api_key(
    key: Optional[str] = None,
    base_url: Optional[str] = None,
    model: Optional[str] = None,
    *,
    api: Optional[str] = None,
    max_output_tokens: Optional[int] = None,
    home: Optional[Path] = None,
) -> None:
    """Remember the model settings in ~/.crane_llm/config.json, across sessions.

    crane_llm.set_api_key("sk-...")
    crane_llm.set_api_key("sk-or-...", base_url="https://openrouter.ai/api/v1", model="anthropic/claude-sonnet-4.5")
    crane_llm.set_api_key(base_url="http://localhost:11434/v1", model="qwen2.5-coder:32b")   # local: no key
    crane_llm.set_api_key(base_url="https://openrouter.ai/api/v1", api="responses")  # its Responses API
    crane_llm.set_api_key(max_output_tokens=2000)   # a shorter answer limit (default 8000)

    api: "auto" (no base_url: the Responses API; a base_url: Chat Completions), "responses" or "chat".

    Only the fields given change; the others are kept. Prints where it wrote, never the key; a
    problem (a folder that is a link, a file in the folder's place) is a printed message, not a
    traceback. Environment variables and .env still take precedence over the file, as the
    resolution order says; it prints a note when they do.
    """
    updates: Dict[str, Any] = {
        name: value.strip()
        for name, value in (("api_key", key), ("base_url", base_url), ("model", model), ("api", api))
        if isinstance(value, str) and value.strip()
    }
    if max_output_tokens is not None and not isinstance(max_output_tokens, bool):
        updates["max_output_tokens"] = max_output_tokens
    path = config_path(home)
    if not updates:
        print('CRANE-LLM: nothing to save. Give a key, a base_url, a model, an api or a max_output_tokens, e.g. crane_llm.set_api_key("sk-...").')
        return
    kept_note = None
    try:
        try:
            data = read_config(path)
        except ConfigUnreadable as why:
            if not (path.is_file() and not path.is_symlink() and path.parent.is_dir()):
                raise CannotSave(str(why))
            _private_folder(path.parent)  # (a linked folder is refused before anything in it is renamed)
            kept = _keep_aside(path)
            kept_note = "%s could not be read, so it was kept as %s and a new file was started." % (path, kept)
            data = {}
        data.update(updates)
        _write_private(path, data)
    except CannotSave as why:
        print("CRANE-LLM: nothing was saved. %s" % why)
        return
    except OSError as exc:
        print("CRANE-LLM: nothing was saved: %s could not be written (%s)." % (path, exc.strerror or exc))
        return
    if kept_note:
        print("Note: %s" % kept_note)
    said = [_SAID[n] for n in _SAID if n in updates]
    print("CRANE-LLM: saved %s to %s" % (_listing(said), path))
    settings = resolve_settings(home=home)
    for name in _SAID:
        setting = getattr(settings, name)
        if name in updates and setting.source in ("env", "dotenv"):
            print("Note: %s takes precedence over the file for %s." % (setting.label, _SAID[name]))
        if name in updates and setting.problem:
            print("Note: %s" % setting.problem)
    if settings.key_required and not settings.api_key.value:
        print("Note: no API key is configured yet for %s." % settings.provider_host)
