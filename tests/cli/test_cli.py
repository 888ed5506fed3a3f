from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repos import PROJECT
from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import tg
from tests.support.sandbox import modes_bind
from tg_git.estimate.estimator import estimate_tokens
from tg_git.estimate.estimator import fitted_estimate
from tg_git.main import main


def test_version_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("tg-git ")


def test_version_through_console_script() -> None:
    out = subprocess.run([TG_GIT, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("tg-git 0.")


def test_python_dash_m(tmp_path: Path) -> None:
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "tg_git", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("tg-git ")


def test_usage_error_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["estimate", "--profile"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tg-git: ") and err.count("\n") == 1


def test_estimate_outside_a_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "img.bin").write_bytes(b"\x89PNG\x00\x00binary")
    (tmp_path / "latin1.txt").write_bytes("café crème".encode("latin-1"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.md").write_text("# title\n")
    monkeypatch.chdir(tmp_path)
    assert main(["estimate", ".", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_path = {Path(f["path"]).as_posix(): f for f in data["files"]}
    assert by_path["img.bin"]["binary"] is True and by_path["img.bin"]["tokens"] == 0
    assert by_path["a.py"]["tokens"] == estimate_tokens("def f():\n    return 1\n", "a.py")
    assert "not UTF-8" in by_path["latin1.txt"]["encoding"]
    assert by_path["sub/b.md"]["tokens"] == estimate_tokens("# title\n", "b.md")
    latin1 = by_path["latin1.txt"]["tokens"]
    assert latin1 == estimate_tokens("caf\ufffd cr\ufffdme", "latin1.txt")  # bytes replaced
    assert data["total"] == sum(f["tokens"] for f in data["files"])


def test_estimate_directory_skips_git_ignored(plain_repo: Path) -> None:
    (plain_repo / ".gitignore").write_text("build/\n")
    (plain_repo / "build").mkdir()
    (plain_repo / "build" / "out.js").write_text("var x = 1;\n")
    (plain_repo / "src.py").write_text("x = 1\n")
    data = json.loads(tg(plain_repo, "estimate", ".", "--json").stdout)
    paths = {Path(f["path"]).name for f in data["files"]}
    assert "src.py" in paths and "out.js" not in paths


def test_estimate_stdin_and_profiles(tmp_path: Path) -> None:
    text = "hello world " * 50
    o200k = json.loads(tg(tmp_path, "estimate", "-", "--json", input=text).stdout)["total"]
    seed = json.loads(
        tg(tmp_path, "estimate", "-", "--json", "--profile", "seed", input=text).stdout
    )["total"]
    assert o200k == estimate_tokens(text, None, "o200k") and seed == round(100 * 1.3)


@pytest.mark.parametrize("problem", ["missing", "unreadable", "bad-profile"])
def test_estimate_bad_input_is_one_clear_line(tmp_path: Path, problem: str) -> None:
    target = tmp_path / "f.txt"
    args = ["estimate", str(target)]
    if problem == "unreadable":
        target.write_text("x")
        target.chmod(0)
    elif problem == "bad-profile":
        target.write_text("x")
        args += ["--profile", "nope"]
    # as root, without the capabilities that let root read a mode-0 file
    proc = subprocess.run(
        [TG_GIT, *args], cwd=tmp_path, capture_output=True, text=True, preexec_fn=modes_bind()
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("tg-git: ") and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


def test_unreadable_file_via_fifo_directory_error(tmp_path: Path) -> None:
    # A FIFO can't be estimated sensibly; a directory name inside a file path can't be read.
    target = tmp_path / "file.txt"
    target.write_text("x")
    proc = tg(tmp_path, "estimate", str(target / "child"), check=False)
    assert proc.returncode == 1 and "no such file" in proc.stderr


def test_commands_outside_a_repo_say_so(tmp_path: Path) -> None:
    proc = tg(tmp_path, "status", check=False)
    assert proc.returncode == 3 and "git" in proc.stderr


def test_commands_before_init_say_so(plain_repo: Path) -> None:
    proc = tg(plain_repo, "status", check=False)
    assert proc.returncode == 3 and "tg-git init" in proc.stderr


def locale(**names: str) -> dict[str, str]:
    """The locale variables gettext reads, all blank but ``names``."""
    return {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "", **names}


def hangul(text: str) -> bool:
    return any("가" <= c <= "힣" for c in text)


def test_where_no_config_says_the_locale_names_the_language(
    tmp_path: Path, plain_repo: Path
) -> None:
    """Outside a repository, before `tg-git init`, and in a config too broken to name its
    language: the first of LC_ALL, LC_MESSAGES and LANG that is set says (ko* is Korean)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    ko = locale(LANG="ko_KR.UTF-8")
    said = tg(outside, "status", check=False, env=ko)
    assert said.returncode == 3 and hangul(said.stderr) and "git init" in said.stderr
    said = tg(outside, "status", check=False, env=locale(LC_ALL="C", LANG="ko_KR.UTF-8"))
    assert said.returncode == 3 and "not inside a git work tree" in said.stderr
    said = tg(outside, "status", check=False, env=locale(LC_MESSAGES="ko", LANG="en_US.UTF-8"))
    assert hangul(said.stderr), said.stderr
    said = tg(plain_repo, "status", check=False, env=ko)  # a repository before init
    assert said.returncode == 3 and hangul(said.stderr) and "tg-git init" in said.stderr
    assert hangul(tg(plain_repo, "hook", "pre-commit", env=ko).stderr)  # "run tg-git init"
    tg(plain_repo, "init", env=ko)  # the language it spoke is the one it writes
    config = plain_repo / ".tg-git" / "config.toml"
    assert 'language = "ko"' in config.read_text()
    config.write_text("max_tokens = [[[ broken\n")  # no language line left to read
    said = tg(plain_repo, "status", check=False, env=ko)
    assert said.returncode == 1 and "TOML" in said.stderr and hangul(said.stderr), said.stderr
    config.write_text('language = "en"\nmax_tokens = [[[ broken\n')  # the config still says
    said = tg(plain_repo, "status", check=False, env=ko)
    assert said.returncode == 1 and not hangul(said.stderr), said.stderr


def test_init_is_idempotent_and_keeps_user_config(plain_repo: Path) -> None:
    tg(plain_repo, "init", "--max-tokens", "5000", "--language", "ko")
    config = plain_repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text().replace("max_tokens = 5000", "max_tokens = 7000  # mine"))
    tg(plain_repo, "init")
    assert "max_tokens = 7000  # mine" in config.read_text()
    assert (plain_repo / ".gitattributes").read_text().count("merge=union") == 3
    status = json.loads(tg(plain_repo, "status", "--json").stdout)
    assert status["max_tokens"] == 5000 and status["used"] == 0
    assert git(plain_repo, "diff", "--name-only", "--", ".tg-git/ledger").stdout == ""  # staged


def test_install_keeps_and_restores_an_existing_hook(plain_repo: Path) -> None:
    hooks = plain_repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    mine = '#!/bin/sh\necho mine >> "$(git rev-parse --git-dir)/ran"\n'
    (hooks / "pre-commit").write_text(mine)
    (hooks / "pre-commit").chmod(0o755)
    tg(plain_repo, "init")
    tg(plain_repo, "install")
    assert "tg-git-shim-v1" in (hooks / "pre-commit").read_text()
    assert (hooks / "pre-commit.pre-tg-git").read_text() == mine
    tg(plain_repo, "install")  # twice: still one kept copy, ours on top
    (plain_repo / "a.txt").write_text("a\n")
    git(plain_repo, "add", ".")
    proc = git(plain_repo, "commit", "-q", "-m", "a")
    assert "tg-git 🔋" in proc.stderr
    assert (plain_repo / ".git" / "ran").read_text() == "mine\n"
    tg(plain_repo, "uninstall")
    assert (hooks / "pre-commit").read_text() == mine
    assert not (hooks / "pre-commit.pre-tg-git").exists()
    assert not (hooks / "post-commit").exists()


def test_failing_chained_hook_still_blocks(plain_repo: Path) -> None:
    hooks = plain_repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "pre-commit").write_text("#!/bin/sh\necho 'lint failed' >&2\nexit 1\n")
    (hooks / "pre-commit").chmod(0o755)
    tg(plain_repo, "init")
    tg(plain_repo, "install")
    proc = git(plain_repo, "commit", "-q", "-m", "x", check=False)
    assert proc.returncode != 0 and "lint failed" in proc.stderr


def test_install_follows_core_hooks_path(plain_repo: Path) -> None:
    git(plain_repo, "config", "core.hooksPath", "my-hooks")
    tg(plain_repo, "init")
    tg(plain_repo, "install")
    assert (plain_repo / "my-hooks" / "pre-commit").is_file()
    (plain_repo / "a.txt").write_text("a\n")
    git(plain_repo, "add", "a.txt")
    assert "tg-git 🔋" in git(plain_repo, "commit", "-q", "-m", "a").stderr


def test_unknown_hook_name(plain_repo: Path) -> None:
    proc = tg(plain_repo, "hook", "post-nothing", check=False)
    assert proc.returncode == 2 and "unknown hook" in proc.stderr


@pytest.mark.parametrize(
    "name", ["with space.py", "ünïcödé.md", "-dash.txt", "tab\tname.txt", "new\nline.txt"]
)
def test_estimate_odd_file_names(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("some words here\n")
    data = json.loads(tg(tmp_path, "estimate", "--json", "--", name).stdout)
    assert data["files"][0]["path"] == name
    assert data["total"] == estimate_tokens("some words here\n", name)


def test_commands_on_a_corrupt_config_say_how_to_repair(plain_repo: Path) -> None:
    tg(plain_repo, "init")
    path = plain_repo / ".tg-git" / "config.toml"
    path.write_text(path.read_text() + "[[[ broken\n")
    proc = tg(plain_repo, "status", check=False)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1
    assert "not valid TOML" in proc.stderr and "git checkout" in proc.stderr


@pytest.mark.parametrize(
    "junk",
    [
        "[[[ broken",
        'oops = { kind = "weird" }',
        'x = { "kind" = "note", "text" = ' + "[" * 5000 + "]" * 5000 + " }",
    ],
)
def test_commands_on_a_corrupt_ledger_go_on_and_say_how_to_repair(
    plain_repo: Path, junk: str
) -> None:
    tg(plain_repo, "init")
    path = ledger_file(plain_repo)
    path.write_text(path.read_text() + junk + "\n")
    proc = tg(plain_repo, "status", "--json", check=False)
    assert proc.returncode == 0 and json.loads(proc.stdout)["used"] == 0
    assert proc.stderr.count("\n") == 1 and "tg-git repair" in proc.stderr


def test_config_with_bad_values(plain_repo: Path) -> None:
    tg(plain_repo, "init")
    config = plain_repo / ".tg-git" / "config.toml"
    text = config.read_text()
    for bad, message in [
        (text.replace("max_tokens = 200000", 'max_tokens = "lots"'), "`max_tokens` should be int"),
        (text.replace("warning = 80", "warning = 99"), "thresholds must rise"),
        (text.replace('profile = "o200k"', 'profile = "gpt9"'), "unknown `profile`"),
        (text.replace('language = "en"', 'language = "fr"'), "`language` must be"),
    ]:
        config.write_text(bad)
        proc = tg(plain_repo, "status", check=False)
        assert proc.returncode == 1 and message in proc.stderr, proc.stderr


def test_hook_with_huge_and_binary_staged_changes(repo: Path) -> None:
    (repo / "big.txt").write_text("word " * 400_000)
    (repo / "img.png").write_bytes(bytes(range(256)) * 1000)
    git(repo, "add", ".")
    proc = git(repo, "commit", "-q", "-m", "big")
    assert "this commit +" in proc.stderr
    status = json.loads(tg(repo, "status", "--json").stdout)
    # 2 MB of text: the commit is counted by the byte-count tier, the image not at all
    assert status["output"] == fitted_estimate("word " * 400_000, "big.txt")


def test_unreadable_even_for_root(tmp_path: Path) -> None:
    # Reading /proc/self/mem fails with EIO for every user, root included.
    if not Path("/proc/self/mem").exists():
        pytest.skip("needs Linux /proc")
    proc = tg(tmp_path, "estimate", "/proc/self/mem", check=False)
    assert proc.returncode == 1 and proc.stderr.startswith("tg-git: cannot read /proc/self/mem")
    assert proc.stderr.count("\n") == 1


def test_config_lists_must_hold_strings(plain_repo: Path) -> None:
    tg(plain_repo, "init")
    config = plain_repo / ".tg-git" / "config.toml"
    config.write_text(
        config.read_text().replace("critical_context = []", "critical_context = [1, 2]")
    )
    proc = tg(plain_repo, "status", check=False)
    assert proc.returncode == 1 and "list of strings" in proc.stderr


def test_negative_tokens_in_the_ledger(plain_repo: Path) -> None:
    tg(plain_repo, "init")
    sid = json.loads(tg(plain_repo, "status", "--json").stdout)["session"]["id"]
    ledger = ledger_file(plain_repo)
    ledger.write_text(
        ledger.read_text()
        + f'e1 = {{ "kind" = "input", "at" = "2099-01-01T00:00:00Z", "session" = "{sid}", "tokens" = -5 }}\n'
    )
    proc = tg(plain_repo, "status", "--json", check=False)  # read on without it, and say so
    assert proc.returncode == 0 and json.loads(proc.stdout)["input"] == 0
    assert "not events" in proc.stderr and "tg-git repair" in proc.stderr


def test_init_leaves_a_users_unstaged_gitattributes_unstaged(plain_repo: Path) -> None:
    (plain_repo / ".gitattributes").write_text("*.png binary\n")
    git(plain_repo, "add", ".gitattributes")
    git(plain_repo, "commit", "-q", "-m", "attrs")
    (plain_repo / ".gitattributes").write_text("*.png binary\n*.jpg binary\n")
    proc = tg(plain_repo, "init")
    assert "left unstaged" in proc.stdout
    assert git(plain_repo, "show", ":.gitattributes").stdout == "*.png binary\n"
    assert (
        (plain_repo / ".gitattributes")
        .read_text()
        .endswith(
            "*.jpg binary\n.tg-git/ledger.toml merge=union -diff linguist-generated=true gitlab-generated\n"
            ".tg-git/ledger/*.toml merge=union -diff linguist-generated=true gitlab-generated\n"
            ".tg-git/ledger/*/*/*.toml merge=union -diff linguist-generated=true gitlab-generated\n"
        )
    )


def walk(
    parser: argparse.ArgumentParser, path: str = "tg-git"
) -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += walk(sub, f"{path} {name}")
    return found


def test_every_option_has_help_and_says_its_default() -> None:
    from tg_git.cli import build

    for path, parser in walk(build()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help, f"{path} {action.option_strings or action.dest} has no help"
        page = parser.format_help()
        for action in parser._actions:
            default = action.default
            if action.option_strings and default not in (None, False, "", argparse.SUPPRESS):
                assert f"default: {default}" in page, (path, action.dest)
    page = subprocess.run([TG_GIT, "resume", "--help"], capture_output=True, text=True).stdout
    assert "--max-tokens N" in page and "default: the config's max_tokens" in page


def test_hook_help_works_and_stays_off_argparse(tmp_path: Path) -> None:
    proc = tg(tmp_path, "hook", "--help")
    assert proc.returncode == 0 and "pre-commit" in proc.stdout and "post-commit" in proc.stdout


def test_json_errors_are_one_object_on_stdout(tmp_path: Path, repo: Path) -> None:
    proc = tg(tmp_path, "status", "--json", check=False)
    assert proc.returncode == 3 and proc.stderr == ""
    error = json.loads(proc.stdout)
    assert error["code"] == 3 and "git" in error["error"]
    proc = tg(repo, "resume", "--json", "--max-tokens", "0", check=False)
    assert proc.returncode == 2 and json.loads(proc.stdout)["code"] == 2
    proc = tg(repo, "log", "--json", "--bogus", check=False)
    assert proc.returncode == 2 and "unrecognized" in json.loads(proc.stdout)["error"]


def test_task_and_note_validation(repo: Path) -> None:
    proc = tg(repo, "task", "start", "nope", check=False)
    assert proc.returncode == 1 and "tg-git task add nope" in proc.stderr
    tg(repo, "task", "add", "parser")
    proc = tg(repo, "task", "add", "parser", check=False)
    assert proc.returncode == 1 and "already exists (pending)" in proc.stderr
    for args in (
        ("note", "  "),
        ("task", "add", ""),
        ("task", "add", "two\nlines"),
        ("task", "add", "x" * 501),
        ("next", " "),
    ):
        assert tg(repo, *args, check=False).returncode == 2, args
    proc = tg(repo, "session", "start", "--max-tokens", "5", check=False)
    assert proc.returncode == 2 and "force-save and halt" in proc.stderr
    assert json.loads(tg(repo, "status", "--json").stdout)["tasks"] == {"parser": "pending"}


def test_task_list(repo: Path) -> None:
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "add", "docs")
    tg(repo, "task", "start", "parser", "--at", "lexer done")
    tg(repo, "task", "block", "docs", "--why", "needs the API")
    tg(repo, "next", "finish the lexer")
    out = tg(repo, "task", "list").stdout
    assert out.splitlines()[:5] == [
        "## 📋 Tasks",
        "- [in progress] parser",
        "   at: lexer done",
        "- [blocked] docs",
        "   blocked by: needs the API",
    ]
    assert "1. finish the lexer" in out
    data = json.loads(tg(repo, "task", "list", "--json").stdout)
    assert data["tasks"][1] == {
        "title": "docs",
        "status": "blocked",
        "stopping_point": "",
        "blockers": ["needs the API"],
    }


def test_config_get_and_set(repo: Path) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text() + "# my own comment\n")
    assert tg(repo, "config", "get", "max_tokens").stdout == "200000\n"
    tg(repo, "config", "set", "max_tokens", "50000")
    tg(repo, "config", "set", "thresholds.warning", "70")
    text = config.read_text()
    assert "max_tokens = 50000" in text and "warning = 70" in text and "# my own comment" in text
    assert json.loads(tg(repo, "config", "get", "thresholds.warning", "--json").stdout) == {
        "key": "thresholds.warning",
        "value": 70.0,
    }
    for args, words in (
        (("max_tokens", "lots"), "whole number"),
        (("max_tokens", "5"), "force-save and halt"),
        (("language", "fr"), "en, ko"),
        (("profile", "gpt9"), "o200k"),
        (("thresholds.halt", "60"), "thresholds must rise"),
        (("colour", "red"), "unknown config key"),
    ):
        proc = tg(repo, "config", "set", *args, check=False)
        assert proc.returncode == 2 and words in proc.stderr, (args, proc.stderr)
    assert "max_tokens = 50000" in config.read_text()  # nothing written by a refused set
    tg(repo, "config", "set", "language", "ko")
    assert "force-save" not in tg(repo, "config", "set", "max_tokens", "5", check=False).stderr
    tg(repo, "session", "start")
    assert json.loads(tg(repo, "status", "--json").stdout)["max_tokens"] == 50000


def test_init_on_a_set_up_repository_changes_the_config_and_keeps_the_session(
    repo: Path,
) -> None:
    tg(repo, "record", "--tokens", "1234")
    before = json.loads(tg(repo, "status", "--json").stdout)
    proc = tg(repo, "init", "--max-tokens", "30000", "--language", "ko")
    config = (repo / ".tg-git" / "config.toml").read_text()
    assert "max_tokens = 30000" in config and 'language = "ko"' in config
    assert "max_tokens = 30000" in proc.stdout  # it says what changed
    assert "tg-git session start" in proc.stdout  # and when the new budget applies
    after = json.loads(tg(repo, "status", "--json").stdout)
    assert (after["session"], after["used"], after["max_tokens"]) == (
        before["session"],
        before["used"],
        before["max_tokens"],
    )
    assert git(repo, "diff", "--name-only").stdout == ""  # all staged
    proc = tg(repo, "init", "--new-session")
    renewed = json.loads(tg(repo, "status", "--json").stdout)
    assert renewed["session"] != before["session"] and renewed["max_tokens"] == 30000
    assert renewed["session"]["id"] in proc.stdout  # said


def test_no_option_is_accepted_abbreviated(repo: Path) -> None:
    from tg_git.cli import build

    for path, parser in walk(build()):
        assert parser.allow_abbrev is False, path
    proc = tg(repo, "init", "--max-token", "5000", check=False)
    assert proc.returncode == 2 and "--max-token" in proc.stderr
    assert "max_tokens = 200000" in (repo / ".tg-git" / "config.toml").read_text()


def test_every_command_has_a_description_and_says_each_default_once() -> None:
    from tg_git.cli import build

    for path, parser in walk(build()):
        if path.strip():
            assert parser.description, f"`{path.strip()} --help` has no description"
        page = " ".join(parser.format_help().split())  # unwrapped
        assert not re.search(r"\(default: [^)]*\) \(default:", page), (path, page)


def test_init_never_stages_a_users_unstaged_config_edit(repo: Path) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text() + "# my unstaged edit\n")
    tg(repo, "init", "--max-tokens", "30000")
    assert "# my unstaged edit" not in git(repo, "show", ":.tg-git/config.toml").stdout
    assert "# my unstaged edit" in config.read_text() and "max_tokens = 30000" in config.read_text()


def test_init_with_odd_gitattributes(plain_repo: Path, tmp_path: Path) -> None:
    attributes = plain_repo / ".gitattributes"
    attributes.write_bytes(b"*.txt text\r\n# caf\xe9 latin-1\r\n")
    tg(plain_repo, "init")
    assert attributes.read_bytes() == (
        b"*.txt text\r\n# caf\xe9 latin-1\r\n.tg-git/ledger.toml merge=union -diff linguist-generated=true gitlab-generated\r\n"
        b".tg-git/ledger/*.toml merge=union -diff linguist-generated=true gitlab-generated\r\n"
        b".tg-git/ledger/*/*/*.toml merge=union -diff linguist-generated=true gitlab-generated\r\n"
    )
    tg(plain_repo, "init")  # found again: not added twice
    assert attributes.read_bytes().count(b"merge=union") == 3


def test_init_with_a_directory_or_a_symlinked_gitattributes(tmp_path: Path) -> None:
    for kind in ("dir", "link"):
        repo = tmp_path / kind
        repo.mkdir()
        git(repo, "init", "-q")
        outside = tmp_path / f"outside-{kind}"
        outside.write_text("* text\n")
        if kind == "dir":
            (repo / ".gitattributes").mkdir()
            proc = tg(repo, "init", check=False)
            assert proc.returncode == 1 and "not a regular file" in proc.stderr
        else:
            (repo / ".gitattributes").symlink_to(outside)
            proc = tg(repo, "init")
            assert "symbolic link" in proc.stdout and "merge=union" in proc.stdout
        assert outside.read_text() == "* text\n"


def test_status_rows_add_up_and_say_what_they_count(repo: Path) -> None:
    for n in range(12):
        (repo / f"f{n}.py").write_text(f"value_{n} = {n}\n")
        (repo / f"g{n}.py").write_text(f"other_{n} = {n}\n")
        git(repo, "add", ".")
        commit(repo, "-m", f"c{n}")
    st = json.loads(tg(repo, "status", "--json").stdout)
    assert st["remaining"] == st["max_tokens"] - st["used"]
    assert st["remaining_before_halt"] == st["token_thresholds"]["halt"] - st["used"]
    table = tg(repo, "status").stdout
    rows = [ln for ln in table.splitlines() if ln.startswith("| ") and "~" in ln]
    figures = [int(r.rsplit("~", 1)[1].split()[0].strip("|* ").replace(",", "")) for r in rows[:-1]]
    assert sum(figures) == st["used"]  # input + earlier + shown rows = the total
    assert "| Outputs 1–2: earlier commits |" in table  # 12 commits counted, 10 shown
    assert "f11.py and 1 more file(s)" in table and "(+1)" not in table
    assert f"Remaining: ~{st['remaining']:,} tokens" in table


def test_messages_in_korean(repo: Path) -> None:
    tg(repo, "config", "set", "language", "ko")
    git(repo, "add", ".tg-git/config.toml")
    outputs = [
        tg(repo, "task", "add", "파서").stdout,
        tg(repo, "note", "네트워크 금지").stdout,
        tg(repo, "status").stdout,
        tg(repo, "task", "list").stdout,
        tg(repo, "checkpoint").stderr,
        tg(repo, "log").stdout,
        tg(repo, "verify").stdout,
        tg(repo, "resume").stdout,
        tg(repo, "session", "start").stdout,
        tg(repo, "task", "start", "없는 작업", check=False).stderr,
        tg(repo, "resume", "--from", "checkpoint/nope", check=False).stderr,
    ]
    for out in outputs:
        assert any(
            "가" <= c <= "힣" for c in out.replace("파서", "").replace("네트워크 금지", "")
        ), out
    assert "단계: **정상**" in outputs[2]


def test_a_huge_budget_keeps_exact_thresholds(repo: Path) -> None:
    tg(repo, "session", "start", "--max-tokens", str(10**20 + 1))
    st = json.loads(tg(repo, "status", "--json").stdout)
    assert st["max_tokens"] == 10**20 + 1
    assert st["token_thresholds"] == {
        "warning": 8 * 10**19 + 1,
        "force_save": 9 * 10**19 + 1,
        "halt": 95 * 10**18 + 1,
    }


def test_the_hook_path_imports_no_argparse(repo: Path) -> None:
    for args in (["hook", "--help"], ["hook", "pre-commit"]):
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "tg_git", *args],
            cwd=repo,
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stderr
        imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()}
        # Off a terminal the hook's lines go out as they are unless one holds a control
        # character (then term.CleanStream strips it): test_hook_output_never_carries_escapes.
        assert "argparse" not in imported and "tomlkit" not in imported


def test_no_parser_anywhere_takes_abbreviations() -> None:
    """The benches too: `--session-event` must not pass for `--session-events`."""
    root = PROJECT
    for path in [*sorted((root / "tg_git").rglob("*.py")), *sorted((root / "bench").glob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        for call in re.findall(r"ArgumentParser\((.*?)\)", text, re.S):
            assert "allow_abbrev=False" in call, path


# What `tg-git CMD` loads and builds, counted in the process that runs it: the command
# modules imported, and the argument parsers made (the top one, then CMD's and below).
_COUNTED = (
    "import sys\n"
    "from tg_git import cli\n"
    "made = []\n"
    "init = cli._Parser.__init__\n"
    "cli._Parser.__init__ = lambda self, *a, **k: (made.append(k.get('prog')), init(self, *a, **k))[1]\n"
    "from tg_git.main import main\n"
    "try:\n"
    "    sys.exit(main(sys.argv[1:]))\n"
    "finally:  # `-h` exits inside argparse\n"
    "    print(sorted(m for m in sys.modules if m.startswith('tg_git.commands')), len(made), file=sys.__stderr__)\n"
)


def _loaded(repo: Path, *args: str) -> tuple[str, int]:
    proc = subprocess.run(
        [sys.executable, "-c", _COUNTED, *args], cwd=repo, capture_output=True, text=True
    )
    modules, made = proc.stderr.strip().splitlines()[-1].rsplit(" ", 1)
    return modules, int(made)


def test_a_command_builds_only_its_own_parser_and_imports_only_its_module(repo: Path) -> None:
    """`tg-git status` neither imports the other commands' modules nor builds their parsers
    (each agent's call paid for all 37 of them); `tg-git -h` and an unknown name still build
    every one, so the list of commands and argparse's choices are said as before."""
    assert _loaded(repo, "status", "--json") == ("['tg_git.commands', 'tg_git.commands.status']", 2)
    assert _loaded(repo, "note", "done") == ("['tg_git.commands', 'tg_git.commands.plan']", 2)
    modules, made = _loaded(repo, "usage", "import")
    assert modules == "['tg_git.commands', 'tg_git.commands.usage']" and made == 0  # hot route
    modules, made = _loaded(repo, "usage", "import", "--agent", "nobody")
    assert modules == "['tg_git.commands', 'tg_git.commands.usage']" and made == 3  # usage, import
    modules, made = _loaded(repo, "task", "list")
    from tg_git.domain.eventlog import TASK_OPS

    assert modules == "['tg_git.commands', 'tg_git.commands.plan']"
    assert made == 2 + len(TASK_OPS) + 1  # task's own: one per op, and `list`
    assert _loaded(repo, "--help")[1] == _loaded(repo, "statu")[1] > 30
