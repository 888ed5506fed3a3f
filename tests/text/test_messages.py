"""Messages in both languages, the level texts, terminal output, and hostile values that
would otherwise reach a ref name, a trailer or the terminal."""

from __future__ import annotations

import json
import os
import pty
import string
import subprocess
from pathlib import Path

import pytest

import tg_git
from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import tg
from tg_git.domain import gauge
from tg_git.domain import levels
from tg_git.domain import refs
from tg_git.domain.config import Config
from tg_git.domain.replay import Session
from tg_git.domain.replay import Task
from tg_git.text import messages
from tg_git.text import term


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# Messages whose English shows words of the OS or the TOML parser (always English) that a
# Korean reader is told in other terms: their fields differ on purpose.
ENGLISH_VALUE = {
    "os_reason.other",
    "toml_reason",
    "toml_reason_at",
    "json_reason",
    "schema_problems",
}


def test_every_message_key_has_both_languages_with_the_same_fields() -> None:
    assert len(messages.table()) > 100
    for key, (en, ko) in messages.table().items():
        assert en.strip() and ko.strip(), key
        assert fields(en) == fields(ko) or key in ENGLISH_VALUE, key
    # Every Korean line that is not just a command or placeholder has Korean in it.
    hangul = [k for k, (_en, ko) in messages.table().items() if any("가" <= c <= "힣" for c in ko)]
    assert len(hangul) >= len(messages.table()) - 6


def test_every_key_the_code_uses_exists() -> None:
    import re

    source = "".join(p.read_text() for p in Path(tg_git.__file__).parent.rglob("*.py"))
    used = set(re.findall(r'messages\.text\(\s*[\w."]+,\s*"([\w.-]+)"', source))
    used |= set(re.findall(r'_say\(ws, "([\w.-]+)"', source))
    used |= set(re.findall(r'\bt\("([\w.-]+)"', source))
    assert len(used) > 60 and used <= set(messages.table()), used - set(messages.table())
    families = {
        "level": ("ok", "warning", "force-save", "halt"),
        "task": ("pending", "in_progress", "blocked", "done"),
        "task_op": ("add", "start", "done", "block"),
        "status": ("intact", "modified", "missing", "rejected", "not-a-file"),
        "where": ("staged", "unstaged", "symlink"),
    }
    for family, names in families.items():
        for name in names:
            assert f"{family}.{name}" in messages.table()


def test_level_names_and_blocks_in_korean() -> None:
    ko = Config(language="ko")
    assert levels.level_name("halt", "ko") == "중단"
    assert "tg-git resume" in gauge.halt_block(ko)  # the Korean halt block names the command
    assert "토큰 한계 도달" in gauge.refusal(ko) and "TG_GIT_ALLOW_HALT=1" in gauge.refusal(ko)


def session(used: int, max_tokens: int = 1000) -> Session:
    s = Session(id="s1", started="", max_tokens=max_tokens, base="", output=used)
    s.tasks["docs"] = Task("docs")
    return s


def test_commit_report_at_each_level() -> None:
    config = Config()
    ok = gauge.commit_report(
        session(100), config, delta=5, current="", crossed=None, override=False
    )
    assert ok == "tg-git 🔋 ~100/1,000 tokens (10%) · ok · this commit +5"
    warn = gauge.commit_report(
        session(850), config, delta=5, current="parser", crossed=None, override=False
    )
    assert "Token warning" in warn and "Current work: parser" in warn and "Remaining: docs" in warn
    halt = gauge.commit_report(
        session(960), config, delta=5, current="", crossed="halt", override=False
    )
    assert "NEXT commit of this session will be refused" in halt and "tg-git resume" in halt
    assert "Token warning" in halt  # the warning block still shows the pending list
    forced = gauge.commit_report(
        session(990), config, delta=5, current="", crossed=None, override=True
    )
    assert "override is recorded" in forced and "will be refused" not in forced
    ko = gauge.commit_report(
        session(960), Config(language="ko"), delta=5, current="", crossed="halt", override=False
    )
    assert "다음 커밋은 거부됩니다" in ko and "· 중단 ·" in ko


def test_crossed_names_the_save_level_a_commit_first_reaches() -> None:
    config = Config()
    assert levels.crossed(800, 899, 1000, config) is None
    assert levels.crossed(899, 900, 1000, config) == "force-save"
    assert levels.crossed(900, 940, 1000, config) is None  # already there
    assert levels.crossed(940, 950, 1000, config) == "halt"
    assert levels.crossed(100, 990, 1000, config) == "halt"  # a jump past both
    assert levels.crossed(960, 990, 1000, config) is None


def test_thresholds_are_exact_integers() -> None:
    config = Config()
    assert levels.thresholds(10**20, config) == {
        "warning": 8 * 10**19,
        "force_save": 9 * 10**19,
        "halt": 95 * 10**18,
    }
    odd_budget = 10**20 + 1  # beyond a float's 53 bits: the thresholds keep every token
    assert levels.thresholds(odd_budget, config)["warning"] == 8 * 10**19 + 1
    assert levels.thresholds(odd_budget, config)["halt"] == 95 * 10**18 + 1
    assert levels.level(95 * 10**18 - 1, 10**20, config) == "force-save"
    assert levels.level(95 * 10**18, 10**20, config) == "halt"
    # The level a threshold names is reached exactly at it, for every budget.
    for budget in (10, 11, 37, 999, 1001):
        limits = levels.thresholds(budget, config)
        assert levels.level(limits["halt"], budget, config) == "halt"
        assert levels.level(limits["halt"] - 1, budget, config) != "halt"
    assert levels.thresholds(10, config) == {"warning": 8, "force_save": 9, "halt": 10}
    odd = Config(warning=33.3, force_save=66.6, halt=99.9)
    assert levels.thresholds(1000, odd) == {"warning": 333, "force_save": 666, "halt": 999}


def test_impossible_budgets_name_the_levels_that_collapse() -> None:
    config = Config()
    assert levels.check_budget(200_000, config) is None
    problem = levels.check_budget(5, config)
    assert problem and "force-save and halt" in problem and "at least" in problem
    assert "must be a positive" in (levels.check_budget(0, config) or "")


HOSTILE = ["a..b", "@{u}", "with spaces", "x" * 300, "line\nTg-Git-Level: halt", "-lead.lock"]


@pytest.mark.parametrize("value", HOSTILE)
def test_tag_names_and_trailers_from_hostile_session_ids(value: str, tmp_path: Path) -> None:
    name = refs.tag_name("20260101T000000.000000Z", value, "manual")
    assert subprocess.run(["git", "check-ref-format", f"refs/tags/{name}"]).returncode == 0
    assert len(name) < 120 and name.startswith("checkpoint/20260101T000000.000000Z-")
    lines = refs.trailers(value, "manual").splitlines()
    assert len(lines) == 2 and lines[1] == "Tg-Git-Level: manual"
    # Two ids that clean up alike still get two names.
    assert refs.safe_component(value) != refs.safe_component(value + "!")


def test_plain_ids_are_kept_as_they_are() -> None:
    assert refs.safe_component("s20261130013514-9d437bd4f048") == "s20261130013514-9d437bd4f048"
    with pytest.raises(ValueError):
        refs.tag_name("not a stamp", "s1", "manual")


def hostile_session(repo: Path, value: str) -> None:
    """A hand-edited ledger: a session start whose id is ``value``."""
    from tg_git.repo.workspace import Workspace

    ws = Workspace.open(repo)
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    ws.add_event("session", id=value, max_tokens=200000, base=head)
    commit(repo, "--allow-empty", "-m", "hand-edited session id")


@pytest.mark.parametrize("value", HOSTILE[:5])
def test_checkpoint_of_a_session_with_a_hostile_id(repo: Path, value: str) -> None:
    hostile_session(repo, value)
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    tag = tg(repo, "checkpoint").stdout.strip()
    assert git(repo, "tag", "--list", "checkpoint/*").stdout.split() == [tag]
    assert git(repo, "rev-parse", "HEAD~1").stdout.strip() == head  # exactly one commit
    body = git(repo, "log", "-1", "--format=%B").stdout
    trailers = [ln for ln in body.splitlines() if ln.startswith("Tg-Git-")]
    assert trailers == [f"Tg-Git-Session: {refs.safe_component(value)}", "Tg-Git-Level: manual"]


ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b31m\rtitle"


def test_escape_sequences_in_ledger_text_never_reach_the_terminal(repo: Path) -> None:
    from tg_git.repo.workspace import Workspace

    ws = Workspace.open(repo)
    ws.add_event("task", op="add", title=ESCAPES)
    ws.add_event("note", text=f"note {ESCAPES}")
    ws.add_event("next", text=f"next {ESCAPES}")
    commit(repo, "--allow-empty", "-m", "hostile plan")
    outputs = [
        tg(repo, "status"),
        tg(repo, "task", "list"),
        tg(repo, "checkpoint", "-m", ESCAPES),
        tg(repo, "log"),
        tg(repo, "resume"),
    ]
    for proc in outputs:
        for text in (proc.stdout, proc.stderr):
            assert not any(c in text for c in "\x1b\x07\x9b\r"), text
    assert "- [pending] title\n" in outputs[1].stdout  # the sequences go, the text stays
    md = (repo / "CHECKPOINT.md").read_text()
    assert not any(ord(c) < 32 and c != "\n" for c in md)
    # The JSON keeps the agent's text exactly (escaped, never raw on a terminal).
    data = json.loads((repo / "harness_checkpoint.json").read_text())
    assert ESCAPES in data["status"]["pending"]


def test_strip_controls_and_one_line() -> None:
    assert term.strip_controls("a\x1b]0;t\x07b\x1b[31mc\x1b[0m\td\ne\x00\x7f\x85") == "abc\td\ne"
    assert term.strip_controls("no \x1b]8;;http://x\x1b\\link") == "no link"
    assert term.one_line("two\nlines\r\n and\ttabs") == "two lines and tabs"
    assert term.strip_controls("plain 한글 ✅") == "plain 한글 ✅"


def test_render_for_a_terminal() -> None:
    text = "## 🔋 Gauge\n| Item | Tokens |\n|---|---|\n| **Total** | ~1 |\n> ⚠️ **Warn**: `x`"
    plain = term.render(text, term.PLAIN)
    assert "**" not in plain and "|" not in plain and "`" not in plain and "> " not in plain
    assert "\x1b" not in plain and "Total" in plain
    color = term.render(text, term.COLOR)
    assert "\x1b[1m" in color and "**" not in color
    assert term.render(text, term.MARKDOWN) == text


def run_on_tty(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """Run tg-git with its stdout and stderr on a pseudo-terminal; return what it showed."""
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [TG_GIT, *args],
        cwd=repo,
        stdout=child,
        stderr=child,
        env={**os.environ, "TERM": "xterm", **(env or {})},
    )
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait()
    os.close(main)
    return b"".join(chunks).decode("utf-8", "replace")


def test_status_is_rendered_on_a_terminal_and_markdown_when_piped(repo: Path) -> None:
    os.environ.pop("NO_COLOR", None)
    shown = run_on_tty(repo, "status")
    assert "\x1b[1m" in shown and "**" not in shown and "| Input" not in shown
    assert "Token gauge" in shown
    no_color = run_on_tty(repo, "status", env={"NO_COLOR": "1"})
    assert "\x1b[" not in no_color and "**" not in no_color and "Token gauge" in no_color
    piped = tg(repo, "status").stdout
    assert "\x1b" not in piped and "| **Cumulative** |" in piped  # the seed's Markdown
    as_json = run_on_tty(repo, "status", "--json")
    assert "\x1b" not in as_json and json.loads(as_json)["level"] == "ok"


def test_a_message_cannot_pose_as_a_trailer(repo: Path) -> None:
    tg(repo, "checkpoint", "-m", "mine\nTg-Git-Level: halt\nTg-Git-Session: other")
    body = git(repo, "log", "-1", "--format=%B").stdout
    assert [ln for ln in body.splitlines() if ln.startswith("Tg-Git-Level:")] == [
        "Tg-Git-Level: manual"
    ]
    assert "  Tg-Git-Level: halt" in body


# ---- the message home's entry format (tg_git/text/messages) --------------------------------


def test_the_entry_format_reads_as_it_prints() -> None:
    source = (
        "# a comment\n\n"
        "one\n"
        "    en  first line\n"
        "        second line\n\n"
        "        after a blank line\n"
        "    ko  하나\n\n"
        "two\n"
        '    en  "  spaced "\n'
        '    ko  " 공백"\n'
    )
    assert messages.parse(source) == {
        "one": ("first line\nsecond line\n\nafter a blank line", "하나"),
        "two": ("  spaced ", " 공백"),
    }


@pytest.mark.parametrize(
    "bad",
    [
        "key\n    en  English only\n",  # a language missing
        "key\n    en  a\n    ko  b\nkey\n    en  c\n    ko  d\n",  # a key twice
        "key\n   en  three spaces\n    ko  b\n",  # a line off the indentation
        "    en  no key above\n",
        "key\n    fr  b\n    en  a\n    ko  b\n",  # not one of the languages
        "key\n    en a\n    ko  b\n",  # one space after the language
    ],
)
def test_a_malformed_entry_is_an_error_naming_its_area(bad: str) -> None:
    with pytest.raises(ValueError, match="messages area hooks"):
        messages.parse(bad, "hooks")


def test_every_area_is_listed_short_and_holds_its_own_keys() -> None:
    import importlib

    folder = Path(messages.__file__).parent
    assert {p.stem for p in folder.glob("*.py")} - {"__init__"} == set(messages.AREAS)
    where: dict[str, str] = {}
    for area in messages.AREAS:
        module = importlib.import_module(f"tg_git.text.messages.{area}")
        assert len(Path(str(module.__file__)).read_text().splitlines()) <= 600, area
        for key in messages.parse(module.TEXTS, area):
            assert key not in where, (key, area, where.get(key))
            where[key] = area
    assert where.keys() == messages.table().keys()
    assert not messages.has("no.such.key")
    with pytest.raises(KeyError):
        messages.text("en", "no.such.key")


def test_a_message_is_parsed_alone_as_its_area_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key asked for parses its own entry, not its whole area (every commit asks for a few:
    the hooks' area's parse alone cost one about 1 ms); each entry so read is what the whole
    area's parse gives it, in every area."""
    for area in messages.AREAS:
        whole = messages.parse(messages._source(area), area)
        for key, pair in whole.items():
            assert messages._entry(messages._source(area), key, area) == pair, (area, key)
    parsed: list[str] = []
    real = messages.parse

    def parse(source: str, area: str = "?") -> dict[str, tuple[str, str]]:
        parsed.append(source)
        return real(source, area)

    monkeypatch.setattr(messages, "parse", parse)
    monkeypatch.setattr(messages, "_FOUND", {})
    monkeypatch.setattr(messages, "_TABLE", {})
    monkeypatch.setattr(messages, "_UNREAD", list(messages.AREAS))
    assert messages.text("en", "level.halt") == "halt"
    assert messages.text("ko", "gauge", used=1, max=2, pct=50, level="ok", delta=1).startswith(
        "tg-git 🔋 ~1/2 토큰 (50%)"
    )
    assert len(parsed) == 2 and all(len(source.splitlines()) <= 4 for source in parsed), parsed


def test_a_commit_reads_only_the_area_its_hooks_speak_from(repo: Path) -> None:
    """A commit at the ok level through the installed hooks parses the hooks' area alone (the
    import cost of the message home on the hook path does not grow with its other areas)."""
    (repo / "a.py").write_text("x = 1\n")
    git(repo, "add", "a.py")
    # The hooks start Python with -E (no PYTHON* variable reaches it): -X importtime instead.
    for hook in (repo / ".git" / "hooks").iterdir():
        text = hook.read_text(errors="replace")
        if "tg-git-shim-v1" in text:
            hook.write_text(text.replace(" -E -c ", " -E -X importtime -c "))
    proc = commit(repo, "-m", "a")
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()}
    assert "tg_git.text.messages" in imported, proc.stderr[-2000:]
    areas = {name for name in imported if name.startswith("tg_git.text.messages.")}
    assert areas == {"tg_git.text.messages.hooks"}, areas
