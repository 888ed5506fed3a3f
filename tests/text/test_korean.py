"""With ``language = "ko"`` every line tg-git prints is Korean: every command, the git hooks at each
level, the pre-push refusal, errors such as a bad config value, the agent hooks, the checkpoint
commits and tags, and the HTML report.

"English" is defined narrowly, so that a test of it can be exact. Code spans (`...`) are taken out
first. A *word* is a token made only of ASCII letters (after its punctuation is stripped) that is
not a name on the allow-list below (products, formats, git's own words that Korean text keeps); a
CamelCase token (an agent's event name), a token with a dash, an underscore, a dot inside, a
slash, an ``=`` or a Hangul syllable is a technical token (a command, a path, a key, an id, a
hash) or Korean, and ends a run of words; a plain number, a quoted value and a path are data:
they neither count nor end one. English is
(1) three or more words in a row, or (2) in text for people, one of the English values tg-git
shows in place of a Korean word (``VALUES``: a level, a task state, a gauge's source): "출처:
estimated" is English. JSON is for programs: only its fields for people (``PEOPLE``: an error,
an agent's added context or message) are read. git's trailers (``Tg-Git-Level: halt``) are for programs too.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.support.agents import claude_line
from tests.support.agents import project_folder
from tests.support.repos import TG_GIT
from tests.support.repos import git

# Names Korean text keeps in Latin letters; each ends a run of English words.
ALLOWED = {
    "git",
    "tg",
    "github",
    "json",
    "toml",
    "html",
    "svg",
    "css",
    "utf",
    "ascii",
    "csv",
    "id",
    "claude",
    "code",
    "codex",
    "cli",
    "gemini",
    "antigravity",
    "cursor",
    "copilot",
    "vs",
    "head",
    "origin",
    "main",
    "mb",
    "kb",
    "ms",
    "o",
    "k",
    "s",
}
# English values that a Korean text must show translated (machine values stay in JSON).
VALUES = {
    "ok",
    "warning",
    "halt",
    "estimated",
    "measured",
    "mixed",
    "pending",
    "done",
    "blocked",
    "intact",
    "modified",
    "missing",
    "rejected",
    "staged",
    "unstaged",
    "none",
    "never",
}
_PUNCT = ".,;:!?()[]{}\"'*>|<#~…“”‘’·—–→"
_CODE = re.compile(r"`[^`\n]*`")
_NUMBER = re.compile(r"^[~+-]?\d[\d,.]*%?$")
# Lines that git itself prints around a hook's output (LC_ALL=C), not tg-git's.
GIT_OWN = ("error: failed to push some refs", "To ", "hint:", "Switched to", "Cloning into")


def is_word(token: str) -> bool:
    word = token.strip(_PUNCT)
    letters = word.replace("'", "").replace("’", "")
    camel = re.search("[a-z][A-Z]", word)  # an event or type name: SessionStart, PreCompact
    return letters.isascii() and letters.isalpha() and not camel and word.lower() not in ALLOWED


def _neutral(token: str) -> bool:
    """A number, a quoted value or a path: data inside a sentence, which neither counts as a
    word nor ends a run ("no session '없는세션' in the ledger" is English)."""
    bare = token.strip(".,;:!?()[]")
    quoted = len(bare) > 1 and bare[0] in "'\"" and bare[-1] == bare[0]
    return bool(_NUMBER.match(token.strip(_PUNCT))) or quoted or "/" in bare


def english_runs(text: str, values: bool = True) -> list[str]:
    """Every English run in ``text`` (rule 1), and with ``values`` every English value (rule 2)."""
    found = []
    for line in text.splitlines():
        if line.startswith(GIT_OWN):
            continue
        run: list[str] = []
        for token in [*_CODE.sub(" ` ", line).split(), "`"]:
            if _neutral(token):
                continue
            if is_word(token):
                run.append(token)
                if values and token.strip(_PUNCT).lower() in VALUES:
                    found.append(token.strip(_PUNCT))
                continue
            if len(run) >= 3:
                found.append(" ".join(run))
            run = []
    return found


def test_the_detector_finds_english_and_passes_korean_and_technical_tokens() -> None:
    assert english_runs("max_tokens는 a whole number of tokens이어야 합니다") == [
        "a whole number of"
    ]
    assert english_runs("tg-git: commit refused: this session's budget is spent.")
    assert english_runs("spent 0 tokens in 0 requests") == ["spent tokens in requests"]
    assert english_runs("this session's budget") == ["this session's budget"]
    assert english_runs("출처: estimated · 요청 0건") == ["estimated"]
    assert english_runs("출처: estimated", values=False) == []
    assert not english_runs("tg-git 🔋 ~0/1,000 토큰 (0%) · 정상 · 이번 커밋 +0")
    assert not english_runs("`tg-git session start` 또는 `git push --no-verify`를 실행하세요.")
    assert not english_runs("pre-commit, pre-merge-commit, post-commit, post-merge, pre-push 설치")
    assert not english_runs("Claude Code, Codex CLI, Gemini CLI 연결: .claude/settings.json")
    assert not english_runs("checkpoint/20261201T100043Z-s20261201-1d32b9b85d5e-manual 3e91430")
    assert english_runs("Source: estimated today") == ["estimated", "Source: estimated today"]
    assert english_runs("no session '없는세션' in the ledger") == ["no session in the ledger"]
    assert english_runs("cannot read /tmp/x.json here") == ["cannot read here"]


class Run:
    """Runs commands in a repository with LC_ALL=C (so git's own words are fixed) and keeps
    what each printed, by command."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.outputs: list[tuple[str, str, bool]] = []
        self.env = {**os.environ, "LC_ALL": "C", "NO_COLOR": "1"}

    def __call__(
        self, *args: str, code: int | None = 0, input: str | None = None, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        argv = [TG_GIT, *args[1:]] if args[0] == "tg-git" else list(args)
        proc = subprocess.run(
            argv, cwd=cwd or self.cwd, capture_output=True, text=True, input=input, env=self.env
        )
        if code is not None:
            assert proc.returncode == code, (args, proc.returncode, proc.stdout, proc.stderr)
        self.keep(" ".join(args), proc.stdout)
        self.keep(" ".join(args), proc.stderr)
        return proc

    def keep(self, what: str, text: str) -> None:
        try:
            document = json.loads(text) if text.lstrip().startswith("{") else None
        except ValueError:
            document = None
        if document is None:
            self.outputs.append((what, text, True))
            return
        self.outputs.append((what, "\n".join(_strings(document, PEOPLE)), True))

    def english(self) -> list[str]:
        return [
            f"{what}: {found!r} in {line!r}"
            for what, text, values in self.outputs
            for line in text.splitlines()
            for found in english_runs(line, values)
        ]


# JSON is for programs, but these fields carry what a person (or a model) reads.
PEOPLE = {"error", "additionalContext", "systemMessage", "reason", "message", "briefing"}


def _strings(value: object, keys: set[str], inside: bool = False) -> list[str]:
    """The strings of a JSON document that sit under one of ``keys``, at any depth."""
    if isinstance(value, str):
        return (value.splitlines() or [""]) if inside else []
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, keys, inside or k in keys)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, keys, inside)]
    return []


def visible_text(page: str) -> str:
    """The text a reader of the HTML report sees (no style, tags or attributes)."""
    page = re.sub(r"<style.*?</style>|<head.*?</head>", " ", page, flags=re.S)
    page = re.sub(r"<(br|/p|/div|/li|/tr|/h\d|/text|/title|/td|/th)\b[^>]*>", "\n", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.fixture
def ko_repo(plain_repo: Path, tmp_path: Path) -> tuple[Path, Run]:
    run = Run(plain_repo)
    (plain_repo / "README.md").write_text("# 데모\n")
    git(plain_repo, "add", "README.md")
    git(plain_repo, "commit", "-q", "-m", "처음")
    run("tg-git", "init", "--max-tokens", "1000", "--language", "ko")
    run("tg-git", "install")
    run("git", "add", ".tg-git", ".gitattributes")
    run("git", "commit", "-q", "-m", "설정")
    return plain_repo, run


def add(repo: Path, name: str, lines: int = 3) -> None:
    (repo / name).write_text("".join(f"값{i} = {i}\n" for i in range(lines)), encoding="utf-8")
    git(repo, "add", name)


def used(run: Run) -> int:
    return int(json.loads(run("tg-git", "status", "--json").stdout)["used"])


def test_every_command_and_every_level_speaks_korean(ko_repo: tuple[Path, Run]) -> None:
    repo, run = ko_repo
    run("tg-git", "status")
    run("tg-git", "status", "--json")
    add(repo, "a.py")
    run("tg-git", "estimate", "a.py")
    run("tg-git", "estimate", "--staged")
    run("tg-git", "estimate", "--json", "a.py")
    run("tg-git", "record", "--input", "기능을 추가해 주세요")
    run("tg-git", "task", "add", "파서")
    run("tg-git", "task", "add", "문서")
    run("tg-git", "task", "start", "파서", "--at", "절반")
    run("tg-git", "task", "block", "문서", "--why", "검토 대기")
    run("tg-git", "task", "list")
    run("tg-git", "task", "list", "--json")
    run("tg-git", "note", "표준 라이브러리만")
    run("tg-git", "next", "테스트 작성")
    run("git", "commit", "-q", "-m", "파서 시작")
    # Each level through real commits: warning, force-save (a checkpoint), halt, the refusal.
    # Records stop just short of each level; the commit's own tokens cross it.
    for target in (800, 900, 950):
        run("tg-git", "record", "--tokens", str(max(1, target - 5 - used(run))))
        add(repo, f"f{target}.py")
        run("git", "commit", "-q", "-m", f"단계 {target}")
    add(repo, "late.py")
    run("git", "commit", "-q", "-m", "늦음", code=1)
    run("tg-git", "task", "done", "파서")
    run("tg-git", "checkpoint", "-m", "수동 저장")
    run("tg-git", "checkpoint")
    run("tg-git", "log")
    run("tg-git", "log", "--json")
    run("tg-git", "verify")
    run("tg-git", "verify", "--json")
    run("tg-git", "repair")
    run("tg-git", "doctor", code=None)
    run("tg-git", "usage")
    run("tg-git", "usage", "import")
    run("tg-git", "config", "get", "max_tokens")
    run("tg-git", "config", "set", "thresholds.warning", "70")
    run("tg-git", "config", "set", "max_tokens", "abc", code=2)
    run("tg-git", "config", "set", "colour", "red", code=2)
    run("tg-git", "report", "--json")
    report = repo / "report.html"
    run("tg-git", "report", "--all", "-o", str(report))
    run.keep("report.html", visible_text(report.read_text(encoding="utf-8")))
    log = git(repo, "log", "--all", "--format=%s%n%b").stdout
    log = "\n".join(ln for ln in log.splitlines() if not ln.startswith("Tg-Git-"))  # trailers
    tags = git(repo, "tag", "-l", "--format=%(contents)").stdout
    run.keep("checkpoint commits", log)
    run.keep("checkpoint tags", tags)
    run.keep("CHECKPOINT.md", (repo / "CHECKPOINT.md").read_text(encoding="utf-8"))
    run("tg-git", "session", "start")
    run("tg-git", "resume", code=None)
    run("tg-git", "uninstall")
    run("tg-git", "install")
    run("tg-git", "uninstall", "--purge", code=None)
    assert not run.english(), "\n".join(run.english())


def test_hook_errors_refusals_and_resume_speak_korean(
    ko_repo: tuple[Path, Run], tmp_path: Path
) -> None:
    repo, run = ko_repo
    remote = tmp_path / "remote.git"
    run("git", "init", "-q", "--bare", str(remote))
    run("git", "remote", "add", "origin", str(remote))
    run("git", "push", "-q", "-u", "origin", "HEAD")
    add(repo, "b.py")
    run("git", "commit", "-q", "--no-verify", "-m", "세지 않음")
    run("git", "push", "-q", code=1)  # the pre-push refusal
    run("tg-git", "verify", code=6)
    config = repo / ".tg-git" / "config.toml"
    good = config.read_text(encoding="utf-8")
    config.write_text(good.replace("max_tokens = 1000", 'max_tokens = "많이"'), encoding="utf-8")
    add(repo, "c.py")
    run("git", "commit", "-q", "-m", "설정이 깨진 채로")  # passes uncounted, says why
    run("tg-git", "status", code=1)
    run("tg-git", "status", "--json", code=1)
    config.write_text(good, encoding="utf-8")
    run("tg-git", "checkpoint", "-m", "저장")
    run("git", "push", "-q", "--no-verify")
    clone = tmp_path / "clone"
    run("git", "clone", "-q", str(remote), str(clone))
    run("tg-git", "resume", cwd=clone)
    run("tg-git", "resume", "--json", cwd=clone)
    run("tg-git", "doctor", cwd=clone, code=1)
    run("tg-git", "resume", "--install", cwd=clone)
    run("tg-git", "task", "start", "없는 작업", cwd=clone, code=1)
    assert not run.english(), "\n".join(run.english())


def test_agents_and_their_hooks_speak_korean(ko_repo: tuple[Path, Run]) -> None:
    repo, run = ko_repo
    run.env.update(
        CLAUDE_CONFIG_DIR=str(repo.parent / "claude"),
        CODEX_HOME=str(repo.parent / "codex"),
        GEMINI_CLI_HOME=str(repo.parent / "gemini"),
    )
    run("tg-git", "agent", "install", "claude", "codex", "gemini", "antigravity")
    run("tg-git", "agent", "status")
    run("tg-git", "agent", "status", "--json")
    line = {
        "session_id": "A",
        "cwd": str(repo),
        "model": {"id": "claude-opus-4-6"},
        "context_window": {"context_window_size": 200000},
    }
    run("tg-git", "statusline", input=json.dumps(line))
    start = {"session_id": "A", "cwd": str(repo), "hook_event_name": "SessionStart"}
    run("tg-git", "hook", "agent", "claude", "SessionStart", input=json.dumps(start))
    for target in (850, 920, 960):
        run("tg-git", "record", "--tokens", str(max(1, target - used(run))))
        prompt = {**start, "hook_event_name": "UserPromptSubmit", "prompt": "계속"}
        run(
            "tg-git",
            "hook",
            "agent",
            "claude",
            "UserPromptSubmit",
            input=json.dumps(prompt),
            code=None,
        )
        stop = {**start, "hook_event_name": "Stop"}
        run("tg-git", "hook", "agent", "claude", "Stop", input=json.dumps(stop), code=None)
    new = {**start, "session_id": "B", "source": "startup"}
    run("tg-git", "hook", "agent", "claude", "SessionStart", input=json.dumps(new))
    run("tg-git", "hook", "agent", "claude", "SessionStart", input="이건 JSON이 아님", code=None)
    run("tg-git", "agent", "uninstall")
    assert not run.english(), "\n".join(run.english())


def test_errors_speak_korean(ko_repo: tuple[Path, Run]) -> None:
    """Each mistake a user makes gets its one sentence and fix in Korean."""
    repo, run = ko_repo
    run("tg-git", "estimate", "없는파일.py", code=1)
    run("tg-git", "estimate", "--profile", "nope", "README.md", code=1)
    run("tg-git", "estimate", "--staged", "README.md", code=1)
    run("tg-git", "task", code=2)
    run("tg-git", "status", "--bogus", code=2)
    run("tg-git", "record", code=2)
    run("tg-git", "record", "--tokens", "-5", code=None)
    run("tg-git", "task", "start", "없는 작업", code=1)
    run("tg-git", "task", "add", "중복")
    run("tg-git", "task", "add", "중복", code=1)
    run("tg-git", "note", " ", code=None)
    run("tg-git", "resume", "--from", "checkpoint/없음", code=None)
    run("tg-git", "session", "start", "--max-tokens", "3", code=None)
    run("tg-git", "init", "--max-tokens", "2000")
    run("tg-git", "report", "--session", "없는세션", code=None)
    run("tg-git", "hook", "nosuch", code=2)
    run("tg-git", "config", "set", "language", "fr", code=2)
    ledger = sorted((repo / ".tg-git" / "ledger").glob("*.toml"))[-1]  # the current session's
    ledger.write_text(ledger.read_text(encoding="utf-8") + "# 손으로 고침\n", encoding="utf-8")
    add(repo, "d.py")
    run("git", "commit", "-q", "-m", "원장 수정 중", code=None)
    git(repo, "checkout", "--", str(ledger))
    saved = ledger.read_bytes()
    ledger.write_bytes(saved + b"\xff\xfe\n")  # not UTF-8: an error the ledger module raises
    run("tg-git", "status", code=1)
    run("tg-git", "doctor", code=1)
    ledger.write_bytes(saved)
    config = repo / ".tg-git" / "config.toml"
    good = config.read_text(encoding="utf-8")
    config.write_text(good + "[[깨진\n", encoding="utf-8")  # not TOML: its language line still says
    run("tg-git", "status", code=1)
    run("tg-git", "doctor", code=1)
    config.write_text(good, encoding="utf-8")
    add(repo, "crash.py")
    run.env["TG_GIT_FAILPOINT"] = "hook-crash"  # a bug in the hook: said, and never blocking
    run("git", "commit", "-q", "-m", "버그")
    del run.env["TG_GIT_FAILPOINT"]
    run("tg-git", "record", "--tokens", "2000")  # past the halt: it saves and halts itself
    add(repo, "d.py")
    run("git", "commit", "-q", "-m", "한계 넘김", code=1)
    add(repo, "e.py")
    run.env["TG_GIT_ALLOW_HALT"] = "1"
    run("git", "commit", "-q", "-m", "강제 커밋")
    assert not run.english(), "\n".join(run.english())


def test_measured_usage_speaks_korean(ko_repo: tuple[Path, Run]) -> None:
    """An agent transcript imported, with a line that is not JSON: the import, the spend and
    the gauge's measured source, in Korean."""

    repo, run = ko_repo
    home = repo.parent / "claude"
    run.env["CLAUDE_CONFIG_DIR"] = str(home)
    transcript = project_folder(repo, home) / "s1.jsonl"
    transcript.write_text(claude_line("m1", "r1", read=500) + "이건 JSON이 아님\n")
    run("tg-git", "usage", "import")
    run("tg-git", "usage", "import")
    run("tg-git", "usage")
    run("tg-git", "status")
    assert not run.english(), "\n".join(run.english())


def test_the_demo_speaks_korean(tmp_path: Path) -> None:
    run = Run(tmp_path)
    run("tg-git", "demo", "--language", "ko")
    assert not run.english(), "\n".join(run.english())


def _command_paths() -> list[list[str]]:
    """Every command and subcommand of tg-git's parser (``[]``: tg-git itself)."""
    import argparse

    from tg_git.cli import build

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> list[list[str]]:
        found = [path]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += walk(sub, [*path, name])
        return found

    return walk(build(), [])


def test_every_help_page_speaks_korean_within_the_terminal(ko_repo: tuple[Path, Run]) -> None:
    """`--help` of every command and subcommand, argparse's own words too ("usage", "options",
    "show this help message and exit", each "(default: ...)"). A command's name (`task done`)
    is a command, not an English value: rule 2 is off here. With ``COLUMNS=80`` no line is
    wider than 80 terminal columns (a Hangul syllable takes two)."""
    _repo, run = ko_repo
    run.env["COLUMNS"] = "80"
    paths = _command_paths()
    assert len(paths) > 30
    english, widths = [], []
    for path in paths:
        page = run("tg-git", *path, "--help").stdout
        assert page.startswith("사용법: tg-git"), (path, page)
        own = path in (["hook"], ["statusline"])  # hot paths: their own page, no argparse
        assert "-h, --help" in page or own, (path, page)
        english += [
            (path, found) for line in page.splitlines() for found in english_runs(line, False)
        ]
        widths += [(columns(line), path, line) for line in page.splitlines()]
    assert "--max-tokens 수" in run("tg-git", "init", "--help").stdout
    assert not english, english
    assert [w for w in widths if w[0] > 80] == []
    assert max(widths)[0] > 70  # the lines are filled, not cut short


def columns(line: str) -> int:
    """The terminal columns ``line`` takes: two for a wide (W) or full-width (F) character."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def test_rare_failures_speak_korean(ko_repo: tuple[Path, Run], tmp_path: Path) -> None:
    """The lines seldom seen: the journal or a file that cannot be written, a committed ledger
    that is not TOML, and the usage importer's notes on a transcript that changed under it."""
    repo, run = ko_repo
    journal = repo / ".git" / "tg-git" / "journal"
    aside = tmp_path / "journal"
    journal.rename(aside)
    journal.write_text("")  # a file where the journal's folder goes: it cannot be written
    run("tg-git", "task", "add", "파서", code=1)
    journal.unlink()
    aside.rename(journal)
    run("tg-git", "report", "-o", str(repo / ".gitattributes" / "보고서.html"), code=1)
    ledger = sorted((repo / ".tg-git" / "ledger").glob("*.toml"))[-1]
    good = ledger.read_text(encoding="utf-8")
    ledger.write_text(good + 'x = """\n', encoding="utf-8")
    run("git", "add", str(ledger))
    run("git", "commit", "-q", "--no-verify", "-m", "깨진 원장")
    run("tg-git", "report", "--json", code=1)
    run("tg-git", "verify", code=None)
    ledger.write_text(good, encoding="utf-8")
    run("git", "add", str(ledger))
    run("git", "commit", "-q", "--no-verify", "-m", "고친 원장")
    home = repo.parent / "claude"
    run.env["CLAUDE_CONFIG_DIR"] = str(home)
    transcript = project_folder(repo, home) / "s1.jsonl"
    transcript.write_text(claude_line("m1", "r1", read=500) + claude_line("m2", "r2"))
    run("tg-git", "usage", "import")
    transcript.write_text(claude_line("m3", "r3"))  # shorter: replaced or truncated
    run("tg-git", "usage", "import")
    transcript.unlink()  # imported before, gone now
    run("tg-git", "usage", "import")
    run("tg-git", "usage", "import", "--agent", "claude", "--transcript", "/proc/self/mem")
    checkpoint = repo / "harness_checkpoint.json"
    checkpoint.write_text('{"깨진": ')  # not JSON: no checkpoint tag, so the work tree's is read
    run("tg-git", "resume", code=4)
    checkpoint.unlink()
    checkpoint.symlink_to(repo / "README.md")
    run("tg-git", "resume", code=4)
    assert not run.english(), "\n".join(run.english())


# ---- Natural Korean: the rules a native reader holds every Korean text to (docs/design.md,
# "Korean terms"). Each reads every `ko` text of the message tables, the Korean argparse
# errors and the demo's story.

# A term the glossary replaced, and the one Korean term used for that idea instead.
REPLACED = {
    "세지 않": "집계하지 않음 (count)",
    "셉니다": "집계합니다 (count)",
    "세는 ": "집계하는 (count)",
    "센 것": "집계된 것 (count)",
    "세었": "집계한 (count)",
    "세고": "집계하고 (count)",
    "계산되지 않": "집계되지 않음 (count)",
    "이력": "히스토리 (history)",
    "트랜스크립트": "대화 기록 (transcript)",
    "디렉터리": "폴더 (folder, directory)",
    "그대로 두세요": "받아들이세요 (accept)",
    "중단 수준": "중단 단계 (level)",
    "사용 예산": "사용량 예산 (spend budget)",
}
# A particle written both ways because the word before it is not known: "{path}이(가)".
_BOTH_WAYS = re.compile(
    r"(이\(가\)|가\(이\)|을\(를\)|를\(을\)|은\(는\)|는\(은\)|와\(과\)|과\(와\)|\(으\)로|으로\(로\))"
)
# A particle that depends on the sound of the placeholder's value before it: "{name}을", "{x}로".
_AFTER_VALUE = re.compile(r"\}[`'\"]?(이|가|을|를|은|는|와|과|으로|로|여야|이어야|이므로|라서)")
# A past participle standing before its object as a status line: "저장됨 {tag}".
_LABEL_FIRST = re.compile(r"[됨함] \{")


def _korean_texts() -> list[tuple[str, str]]:
    """Every Korean text tg-git can print, by where it comes from."""
    from importlib import resources

    from tg_git.text import messages
    from tg_git.text.messages.errors import ARGPARSE_KO

    found = [(key, pair[1]) for key, pair in messages.table().items()]
    found += [(f"argparse {pattern}", korean) for pattern, korean in ARGPARSE_KO]
    demo = json.loads(resources.files("tg_git.demo").joinpath("session.json").read_text("utf-8"))

    def walk(value: object, where: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "ko" and isinstance(item, str):
                    found.append((f"demo {where}", item))
                else:
                    walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{where}[{i}]")

    walk(demo, "")
    return found


def test_no_korean_particle_is_guessed_after_a_name() -> None:
    """`{path}이(가)`, `tg-git이(가)`, `{name}을`: a particle's form depends on the sound of
    the word before it, which a placeholder or a Latin name does not tell. The sentence is
    built so that none follows one (`{path}: …`, `{path} 파일은 …`)."""
    both = [(key, text) for key, text in _korean_texts() if _BOTH_WAYS.search(text)]
    after = [(key, text) for key, text in _korean_texts() if _AFTER_VALUE.search(text)]
    assert both == [], both
    assert after == [], after


def test_status_lines_are_sentences_not_a_participle_before_the_name() -> None:
    labels = [(key, text) for key, text in _korean_texts() if _LABEL_FIRST.search(text)]
    assert labels == [], labels


@pytest.mark.parametrize("old", sorted(REPLACED))
def test_one_korean_term_per_idea(old: str) -> None:
    """The glossary's term everywhere: no Korean text says the idea with the replaced word."""
    found = [(key, text) for key, text in _korean_texts() if old in text]
    assert found == [], f"say {REPLACED[old]}: {found}"


@pytest.mark.parametrize(
    ("error", "shown"),
    [
        ("argument --max-tokens: invalid int value: 'abc'", "'abc'"),
        ("argument --pct: invalid float value: 'x'", "'x'"),
        ("argument --name: invalid str value: 'y'", "'y'"),
        ("argument --when: invalid parse_when value: 'z'", "'z'"),
    ],
)
def test_korean_argparse_errors_show_no_python_type_name(error: str, shown: str) -> None:
    from tg_git.text.messages import argparse_message

    said = argparse_message("ko", error)
    assert shown in said and re.search("[가-힣]", said), said
    assert not re.search(r"\b(int|float|str|parse_when)\b", said), said


def test_a_korean_repository_says_a_bad_number_and_an_unknown_command_in_korean(
    ko_repo: tuple[Path, Run],
) -> None:
    _repo, run = ko_repo
    number = run("tg-git", "init", "--max-tokens", "abc", code=2).stderr
    assert "'abc'" in number and "정수" in number, number
    assert not re.search(r"\bint\b", number), number
    command = run("tg-git", "bogus", code=2).stderr
    assert "'bogus'" in command and "COMMAND" not in command, command
    page = run("tg-git", "--help").stdout
    assert page.startswith("사용법: tg-git [-h] [-V] 명령 ..."), page
    assert "COMMAND" not in page, page
    english = run("tg-git", "--help", cwd=_repo.parent).stdout  # outside: the locale's, C
    assert "COMMAND" in english, english
