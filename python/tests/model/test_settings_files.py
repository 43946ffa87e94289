"""config.json and .env that are broken, misplaced or linked: a message naming the file, never a
traceback, never a silent overwrite, never a write through a symbolic link."""

import json
import os
import stat

import pytest

from crane_llm.settings import resolve_settings, set_api_key

KEY = "sk-test-0123456789abcdef"


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "home"
    h.mkdir()
    return h


def resolve(home, env=None, cwd=None):
    return resolve_settings(cwd=str(cwd or home), environ=env or {}, home=home)


def config(home):
    return home / ".crane_llm" / "config.json"


def write_raw(home, text):
    config(home).parent.mkdir(exist_ok=True)
    config(home).write_bytes(text if isinstance(text, bytes) else text.encode())


@pytest.mark.parametrize("text, said", [
    ('{"api_key": "k",', "is not valid JSON"),
    ('["k"]', "does not hold a JSON object"),
    (b'{"model": "\xff"}', "is not UTF-8 text"),
])
def test_an_unreadable_config_is_a_warning_naming_it(home, text, said):
    write_raw(home, text)
    s = resolve(home)
    assert s.api_key.value is None and s.model.source == "default"
    assert len(s.warnings) == 1 and str(config(home)) in s.warnings[0] and said in s.warnings[0]


def test_set_api_key_keeps_an_unreadable_config_and_says_so(home, capsys):
    write_raw(home, '{"api_key": "sk-old", "model": "mine",')
    set_api_key(KEY, home=home)
    out = capsys.readouterr().out
    kept = config(home).with_name("config.json.unreadable")
    assert kept.read_text() == '{"api_key": "sk-old", "model": "mine",'
    assert "kept as %s" % kept in out and "saved the API key" in out and KEY not in out
    assert json.loads(config(home).read_text()) == {"api_key": KEY}
    write_raw(home, "not json either")
    set_api_key(KEY, home=home)  # a second one does not replace the first one kept
    assert kept.exists() and config(home).with_name("config.json.unreadable-1").read_text() == "not json either"


def test_a_config_that_is_a_folder_is_said_plainly(home, capsys):
    config(home).mkdir(parents=True)
    assert "is a folder, not a file" in resolve(home).warnings[0]
    set_api_key(KEY, home=home)
    out = capsys.readouterr().out
    assert "nothing was saved" in out and str(config(home)) in out and "is a folder" in out
    assert config(home).is_dir()


def test_a_crane_llm_file_in_the_folder_place_is_said_plainly(home, capsys):
    (home / ".crane_llm").write_text("hello")
    assert "is a file" in resolve(home).warnings[0]
    set_api_key(KEY, home=home)
    out = capsys.readouterr().out
    assert "nothing was saved" in out and "%s is a file" % (home / ".crane_llm") in out
    assert (home / ".crane_llm").read_text() == "hello"


def test_a_linked_crane_llm_folder_is_refused_and_not_chmodded(home, tmp_path, capsys):
    elsewhere = tmp_path / "shared"
    elsewhere.mkdir(mode=0o755)
    os.chmod(elsewhere, 0o755)
    (home / ".crane_llm").symlink_to(elsewhere)
    set_api_key(KEY, home=home)
    out = capsys.readouterr().out
    assert "nothing was saved" in out and "symbolic link" in out
    assert os.listdir(elsewhere) == [] and stat.S_IMODE(os.stat(elsewhere).st_mode) == 0o755


def test_a_linked_crane_llm_folder_with_an_unreadable_config_is_left_untouched(home, tmp_path, capsys):
    elsewhere = tmp_path / "shared"
    elsewhere.mkdir()
    (elsewhere / "config.json").write_text('{"api_key": "sk-old",')
    (home / ".crane_llm").symlink_to(elsewhere)
    set_api_key(KEY, home=home)
    out = capsys.readouterr().out
    assert "nothing was saved" in out and "symbolic link" in out and "kept as" not in out
    assert os.listdir(elsewhere) == ["config.json"] and (elsewhere / "config.json").read_text() == '{"api_key": "sk-old",'


def test_a_linked_config_file_is_refused(home, tmp_path, capsys):
    victim = tmp_path / "victim.json"
    victim.write_text("{}")
    config(home).parent.mkdir()
    config(home).symlink_to(victim)
    set_api_key(KEY, home=home)
    assert "symbolic link" in capsys.readouterr().out
    assert victim.read_text() == "{}" and config(home).is_symlink()


def test_a_config_linked_to_ones_own_file_is_read(home, tmp_path):
    # A dotfiles manager links config.json from elsewhere: reading follows the link.
    mine = tmp_path / "dotfiles.json"
    mine.write_text(json.dumps({"api_key": KEY}))
    config(home).parent.mkdir()
    config(home).symlink_to(mine)
    s = resolve(home)
    assert s.api_key.source.startswith(str(config(home))) or "config" in s.api_key.source
    assert s.api_key.value is not None and not s.warnings


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
@pytest.mark.parametrize("owned_by_other", ["target", "link"])
def test_a_config_another_user_controls_is_not_read(home, tmp_path, owned_by_other):
    theirs = tmp_path / "theirs.json"
    theirs.write_text(json.dumps({"api_key": KEY, "base_url": "http://attacker.example/v1"}))
    config(home).parent.mkdir()
    config(home).symlink_to(theirs)
    nobody = 65534
    if owned_by_other == "target":
        os.chown(theirs, nobody, nobody)
    else:
        os.lchown(config(home), nobody, nobody)
    s = resolve(home)
    assert s.api_key.value is None and s.base_url.value != "http://attacker.example/v1"
    assert len(s.warnings) == 1 and str(config(home)) in s.warnings[0] and "another user" in s.warnings[0]


def test_a_config_everyone_may_change_is_not_read(home):
    write_raw(home, json.dumps({"api_key": KEY}))
    os.chmod(config(home), 0o666)
    s = resolve(home)
    assert s.api_key.value is None and "every user" in s.warnings[0]


def test_a_planted_temp_file_link_is_never_followed(home, tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched")
    config(home).parent.mkdir(mode=0o700)
    for name in ("config.json.tmp", ".config.tmp"):
        (config(home).parent / name).symlink_to(victim)
    set_api_key(KEY, home=home)
    assert victim.read_text() == "untouched"
    assert json.loads(config(home).read_text()) == {"api_key": KEY}
    assert stat.S_IMODE(os.stat(config(home)).st_mode) == 0o600
    leftovers = sorted(p.name for p in config(home).parent.iterdir())
    assert leftovers == [".config.tmp", "config.json", "config.json.tmp"]  # no temp file of ours left


def test_a_dotenv_that_is_not_utf8_is_named(home, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / ".env").write_bytes(b"CRANE_LLM_MODEL=caf\xe9\n")
    s = resolve(home, cwd=project)
    assert s.model.source == "default"
    assert any(str(project / ".env") in w and "not UTF-8" in w for w in s.warnings), s.warnings
