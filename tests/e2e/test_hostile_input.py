"""Hostile input, odd repositories and trust: each scenario
of the adversarial pass, on real git with the real CLI and hooks, named after what it guards."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from hashlib import sha256
from pathlib import Path
from typing import Any

import pytest

from bench._transcripts import token_counts
from tests.support.agents import GEMINI_TOKENS
from tests.support.agents import claude_line
from tests.support.agents import codex_lines
from tests.support.agents import gemini_message
from tests.support.agents import project_folder
from tests.support.agents import transcript_before_session
from tests.support.agents import ts
from tests.support.agents import user_line
from tests.support.repos import TG_GIT
from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import status
from tests.support.repos import tg

pytestmark = pytest.mark.usefixtures("agent_homes")  # no agent home outside tmp

HANG = 30  # seconds: far past the 2 s each case takes on a loaded machine; only a hang hits it


def run(cwd: Path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None,
        timeout: float = HANG) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        [TG_GIT, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **(env or {})}, input=stdin,
    )  # fmt: skip


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def lines_naming(text: str, name: str) -> list[str]:
    return [line for line in text.splitlines() if name in line]


# ---- item 4: discovery opens nothing but regular files ----------------------------------------
def test_a_fifo_rollout_never_hangs_codex_discovery(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    day = agent_homes["CODEX_HOME"] / "sessions" / time.strftime("%Y/%m/%d")
    day.mkdir(parents=True)
    os.mkfifo(day / "rollout-2026-12-01T10-00-00-fifo.jsonl")
    (day / "rollout-2026-12-01T10-00-00-good.jsonl").write_text(
        codex_lines(str(repo), [(1000, 200, 50)])
    )
    proc = run(repo, "usage", "import", "--agent", "codex")
    assert proc.returncode == 0, proc.stderr
    assert len(lines_naming(proc.stdout, "fifo.jsonl")) == 1
    assert "not a regular file" in proc.stdout
    assert status(repo)["spend"]["total"] == 1050


def test_a_fifo_claude_transcript_never_hangs_discovery(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    os.mkfifo(folder / "fifo-session.jsonl")
    sub = folder.parent / f"{folder.name}-src"  # an agent started in src/: its cwd is peeked
    sub.mkdir()
    os.mkfifo(sub / "peeked.jsonl")
    (folder / "good.jsonl").write_text(claude_line("m1", "r1", read=100))
    proc = run(repo, "usage", "import", "--agent", "claude")
    assert proc.returncode == 0, proc.stderr
    assert len(lines_naming(proc.stdout, "fifo-session.jsonl")) == 1
    assert len(lines_naming(proc.stdout, "peeked.jsonl")) == 1
    assert status(repo)["spend"]["total"] == 113


def hostile_registry(gemini: Path, kind: str) -> str:
    """Make ``kind`` of Gemini's files hostile; the name the one line about it must hold."""
    if kind == "fifo-marker":
        (gemini / "tmp" / "other").mkdir(parents=True)
        os.mkfifo(gemini / "tmp" / "other" / ".project_root")
        return ".project_root"
    (gemini / "tmp").mkdir(parents=True)
    if kind == "dev-zero":
        (gemini / "projects.json").symlink_to("/dev/zero")
    else:
        with (gemini / "projects.json").open("wb") as fh:
            fh.truncate(64 << 20)  # sparse: 64 MB of zeros, no disk
    return "projects.json"


@pytest.mark.parametrize("kind", ["fifo-marker", "dev-zero", "oversized"])
def test_gemini_discovery_reads_no_fifo_device_or_huge_registry(
    repo: Path, agent_homes: dict[str, Path], kind: str
) -> None:
    name = hostile_registry(agent_homes["GEMINI_CLI_HOME"] / ".gemini", kind)
    proc = run(repo, "usage", "import", "--agent", "gemini")
    assert proc.returncode == 0, proc.stderr
    assert len(lines_naming(proc.stdout, name)) == 1


# ---- item 5: a stdout that is not UTF-8 ---------------------------------------------------------
ASCII = {"PYTHONIOENCODING": "ascii"}
C_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


@pytest.mark.parametrize("env", [ASCII, C_LOCALE], ids=["ascii", "c-locale"])
def test_a_stdout_that_is_not_utf8_crashes_nothing(repo: Path, env: dict[str, str]) -> None:
    tg(repo, "config", "set", "language", "ko")  # Korean, arrows and emoji in every line
    commit(repo, "-am", "korean")
    tg(repo, "task", "add", "한국어 작업 — ünïcode 🔋")
    tg(repo, "checkpoint", "-m", "저장 — 🔋")
    for args in (["status"], ["status", "--json"], ["log"], ["log", "--json"], ["usage"],
                 ["task", "list"], ["verify"], ["doctor"]):  # fmt: skip
        proc = run(repo, *args, env=env)
        assert proc.returncode in (0, 1), (args, proc.returncode, proc.stderr)
        assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr, args
        if "--json" in args:
            json.loads(proc.stdout)
    before = status(repo)["session"]["id"]
    proc = run(repo, "resume", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr
    after = status(repo)["session"]["id"]
    assert after != before
    again = run(repo, "resume", "--json", env=env)
    assert again.returncode == 0 and json.loads(again.stdout)["session"]["id"] == after


def test_an_agent_hook_on_an_ascii_stdout_still_answers_json(repo: Path) -> None:
    tg(repo, "config", "set", "language", "ko")
    commit(repo, "-am", "korean")
    payload = json.dumps({"session_id": "s-1", "cwd": str(repo), "source": "startup"})
    proc = run(repo, "hook", "agent", "claude", "SessionStart", env=ASCII, stdin=payload)
    assert proc.returncode == 0, proc.stderr
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "토큰" in context


# ---- item 7: a clone that tracks tg-git's folder or files as symlinks ---------------------------
def hostile_clone(tmp_path: Path, link: str, target: Path) -> Path:
    """A clone of a repository that tracks ``link`` as a symlink to ``target`` (outside it)."""
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q")
    (origin / "README.md").write_text("hi\n")
    (origin / link).parent.mkdir(parents=True, exist_ok=True)
    (origin / link).symlink_to(target)
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "hostile")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    assert (clone / link).is_symlink()
    return clone


def outside_dir(tmp_path: Path) -> Path:
    outside = tmp_path / "victim"
    (outside / "ledger").mkdir(parents=True)
    (outside / "config.toml").write_text("# the victim's own file\nmax_tokens = 1000\n")
    (outside / "ledger" / "keep.toml").write_text("# theirs\n")
    return outside


@pytest.mark.parametrize("link", [".tg-git", ".tg-git/ledger", ".tg-git/config.toml"])
def test_a_clone_with_linked_tg_git_files_writes_nothing_outside(tmp_path: Path, link: str) -> None:
    outside = outside_dir(tmp_path)
    target = {".tg-git": outside, ".tg-git/ledger": outside / "ledger",
              ".tg-git/config.toml": outside / "config.toml"}[link]  # fmt: skip
    clone = hostile_clone(tmp_path, link, target)
    before = snapshot(outside)
    steps = [
        run(clone, "init", "--max-tokens", "300000"),
        run(clone, "install"),
        run(clone, "config", "set", "max_tokens", "400000"),
        run(clone, "config", "set", "project_name", "x"),
        run(clone, "record", "--tokens", "50"),
        run(clone, "note", "remember this"),
        run(clone, "checkpoint"),
    ]
    (clone / "work.txt").write_text("work\n")
    git(clone, "add", "work.txt")
    done = subprocess.run(["git", "commit", "-q", "-m", "work"], cwd=clone, capture_output=True,
                          text=True, timeout=HANG)  # fmt: skip
    assert done.returncode == 0, done.stderr  # a tool error never blocks a commit
    assert snapshot(outside) == before, [s.stderr for s in steps]
    assert sorted(p.name for p in outside.rglob("*")) == sorted(
        ["ledger", "config.toml", "keep.toml"]
    )
    refused = [s for s in steps if s.returncode != 0]
    assert any("symbolic link" in s.stderr for s in steps), [s.stderr for s in steps]  # why
    for step in refused:  # each refusal is one clear line
        assert len(step.stderr.strip().splitlines()) == 1, step.stderr
        assert "internal error" not in step.stderr


@pytest.mark.parametrize("entry", ["", ".", "bin"])
def test_a_git_in_the_work_tree_never_runs_through_a_relative_path_entry(
    repo: Path, tmp_path: Path, entry: str
) -> None:
    # an empty or relative PATH entry names a folder under the current one: the work tree,
    # where a clone can track an executable `git` (git's own hooks put its exec-path first,
    # but tg-git's commands and agent hooks run with the user's PATH)
    marker = tmp_path / "ran"
    for folder in (repo, repo / "bin"):
        folder.mkdir(exist_ok=True)
        (folder / "git").write_text(f"#!/bin/sh\necho ran >> {marker}\nexit 1\n")
        (folder / "git").chmod(0o755)
    path = f"{entry}{os.pathsep}{os.environ['PATH']}"
    for args in (["status", "--json"], ["verify"]):
        done = run(repo, *args, env={"PATH": path})
        assert done.returncode == 0, done.stderr
    assert not marker.exists()


# ---- item 8: the agent hook imports only this work tree's transcripts ---------------------------
def hook(repo: Path, event: str, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return run(repo, "hook", "agent", "claude", event, stdin=json.dumps(payload))


@pytest.mark.parametrize("where", ["other-project", "elsewhere"])
def test_the_agent_hook_refuses_a_transcript_of_another_tree(
    repo: Path, agent_homes: dict[str, Path], tmp_path: Path, where: str
) -> None:
    if where == "other-project":
        other = tmp_path / "other"
        other.mkdir()
        folder = project_folder(other, agent_homes["CLAUDE_CONFIG_DIR"])
    else:
        folder = tmp_path / "etc"
        folder.mkdir()
    foreign = folder / "s-9.jsonl"
    foreign.write_text(claude_line("m9", "r9", read=90000))
    payload = {"session_id": "s-9", "cwd": str(repo), "transcript_path": str(foreign)}
    proc = hook(repo, "Stop", payload)
    assert proc.returncode == 0, proc.stderr
    assert len(lines_naming(proc.stderr, "s-9.jsonl")) == 1 and "refused" in proc.stderr
    assert status(repo)["spend"]["total"] == 0
    mine = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / "s-1.jsonl"
    mine.write_text(claude_line("m1", "r1", read=100))
    ok = hook(repo, "Stop", {**payload, "session_id": "s-1", "transcript_path": str(mine)})
    assert ok.returncode == 0 and "refused" not in ok.stderr, ok.stderr
    assert status(repo)["spend"]["total"] == 113


def test_the_agent_hook_takes_a_transcript_of_a_subfolder_agent(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    (repo / "src").mkdir()
    folder = project_folder(repo / "src", agent_homes["CLAUDE_CONFIG_DIR"])
    line = json.loads(claude_line("m1", "r1", read=100))
    line["cwd"] = str(repo / "src")
    (folder / "s-2.jsonl").write_text(json.dumps(line) + "\n")
    payload = {"session_id": "s-2", "cwd": str(repo / "src"),
               "transcript_path": str(folder / "s-2.jsonl")}  # fmt: skip
    proc = hook(repo, "Stop", payload)
    assert "refused" not in proc.stderr, proc.stderr
    assert status(repo)["spend"]["total"] == 113


# ---- item 9: checkpoints tg-git writes are checkpoints its resume accepts ----------------------
def resume_json(repo: Path) -> dict[str, Any]:
    proc = run(repo, "resume", "--json")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def oversized_fields(repo: Path, where: str) -> None:
    """Fields past the checkpoint schema's bounds, where a user or a clone can put them."""
    if where == "config":
        path = repo / ".tg-git" / "config.toml"
        context = ["c" * 9000, *[f"line {n}" for n in range(10050)]]
        added = (
            f"project_name = {json.dumps('p' * 5000)}\ncritical_context = {json.dumps(context)}\n"
        )
    else:
        path, session = ledger_file(repo), status(repo)["session"]["id"]
        at = f'at = "{ts()[:19]}Z", session = "{session}"'
        added = (f'n1 = {{ kind = "note", {at}, text = "{"n" * 70000}" }}\n'
                 f'n2 = {{ kind = "task", {at}, op = "add", title = "{"t" * 6000}" }}\n')  # fmt: skip
    path.write_text(path.read_text() + added)


@pytest.mark.parametrize("where", ["config", "ledger"])
def test_oversized_fields_still_make_a_readable_checkpoint(repo: Path, where: str) -> None:
    oversized_fields(repo, where)
    git(repo, "add", "-A")
    commit(repo, "-m", "long fields")
    tg(repo, "checkpoint")
    data = resume_json(repo)
    assert data["skipped"] == [] and data["checkpoint"]["source"] == "tag"


def long_name_commit(repo: Path) -> None:
    """Commit a file whose name has a 300-byte component (git takes it; no file system does)."""
    blob = git(repo, "hash-object", "-w", "--stdin", input="x\n").stdout.strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},{'a' * 300}/f.txt")
    commit(repo, "--no-verify", "-m", "long name")


def test_a_checkpoint_with_an_impossible_path_is_never_written(repo: Path) -> None:
    long_name_commit(repo)
    tg(repo, "checkpoint")
    data = resume_json(repo)
    assert data["skipped"] == []


def test_a_crafted_checkpoint_falls_back_to_the_previous_good_one(repo: Path) -> None:
    tg(repo, "checkpoint", "-m", "good")
    good = git(repo, "rev-parse", "HEAD").stdout.strip()
    doc = json.loads((repo / "harness_checkpoint.json").read_text())
    doc["status"]["completed_files"].append({"path": "b" * 300 + "/x", "blob": "0" * 40})
    doc["status"]["completed"].append("b" * 300 + "/x")
    (repo / "harness_checkpoint.json").write_text(json.dumps(doc))
    git(repo, "add", "harness_checkpoint.json")
    commit(repo, "--no-verify", "-m", "checkpoint: crafted")
    git(repo, "tag", "checkpoint/20991231T000000.000000Z-crafted-manual")
    for _ in range(2):
        data = resume_json(repo)
        assert data["checkpoint"]["commit"] == good
        assert [s["tag"] for s in data["skipped"]] == [
            "checkpoint/20991231T000000.000000Z-crafted-manual"
        ]


@pytest.mark.parametrize(
    "args",
    [
        ["session", "start", "--max-tokens", str(10**31)],
        ["config", "set", "max_tokens", str(10**31)],
        ["init", "--max-tokens", str(10**31)],
        ["resume", "--max-tokens", str(10**31)],
    ],
    ids=["session-start", "config-set", "init", "resume"],
)
def test_a_budget_too_large_to_read_back_is_refused(repo: Path, args: list[str]) -> None:
    tg(repo, "checkpoint")
    proc = run(repo, *args)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert status(repo)["max_tokens"] == 200000


def test_a_long_project_name_is_refused_by_config_set(repo: Path) -> None:
    proc = run(repo, "config", "set", "project_name", "p" * 1001)
    assert proc.returncode == 2 and "1,000" in proc.stderr


# ---- item 10: one Claude request copied into two transcripts counts once ------------------------
def test_a_request_copied_into_two_transcripts_counts_once(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    lines = [claude_line(f"m{n}", f"r{n}", read=100) for n in range(7)]
    (folder / "first.jsonl").write_text("".join(lines))
    first = json.loads(tg(repo, "usage", "import", "--json").stdout)
    assert first["requests"] == 7
    # a resumed conversation starts a new file holding copies of the earlier requests
    (folder / "resumed.jsonl").write_text(user_line() + "".join(lines[2:]))
    (folder / "fork.jsonl").write_text("".join(lines[:3]) + claude_line("m7", "r7", read=100))
    tg(repo, "usage", "import")
    assert status(repo)["spend"]["requests"] == 8
    assert status(repo)["spend"]["total"] == 8 * 113


def test_copies_read_in_one_import_count_once(repo: Path, agent_homes: dict[str, Path]) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    lines = [claude_line(f"m{n}", f"r{n}", read=100) for n in range(7)]
    (folder / "a.jsonl").write_text("".join(lines))
    (folder / "b.jsonl").write_text("".join(lines[2:]))
    assert json.loads(tg(repo, "usage", "import", "--json").stdout)["requests"] == 7


# ---- item 11: a line over 80 MB ------------------------------------------------------------------
def test_requests_after_an_80_mb_line_count_at_once(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    folder = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"])
    path = folder / "big.jsonl"
    with path.open("w") as fh:
        fh.write(claude_line("m0", "r0", read=100))
        fh.write('{"type":"user","pad":"' + "x" * (81 << 20) + '"}\n')
        for n in range(1, 4):
            fh.write(claude_line(f"m{n}", f"r{n}", read=100))
    out = json.loads(tg(repo, "usage", "import", "--json").stdout)
    assert out["requests"] == 4
    assert status(repo)["spend"]["total"] == 4 * 113


# ---- item 12: clocks -------------------------------------------------------------------------------
def test_a_session_ahead_of_the_agents_clock_takes_its_usage(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    path = transcript_before_session(
        repo,
        agent_homes["CLAUDE_CONFIG_DIR"],
        "late.jsonl",
        claude_line("m0", "r0", read=100, at=ts(-7200)),
    )
    tg(repo, "usage", "import")
    assert status(repo)["spend"]["total"] == 0
    with path.open("a") as fh:  # written now, by an agent whose clock is two hours behind
        fh.write(claude_line("m1", "r1", read=100, at=ts(-7000)))
        fh.write(claude_line("m2", "r2", read=100, at=ts(-6990)))
    tg(repo, "usage", "import")
    assert status(repo)["spend"]["total"] == 2 * 113


def restamped(text: str, seconds: float) -> str:
    """The JSON lines of ``text`` stamped ``seconds`` from now (a writer whose clock is off by
    that much, writing now)."""
    objs = [json.loads(line) for line in text.splitlines()]
    return "".join(json.dumps({**o, "timestamp": ts(seconds)} if "timestamp" in o else o) + "\n"
                   for o in objs)  # fmt: skip


def transcript(repo: Path, homes: dict[str, Path], agent: str) -> tuple[Path, str, int]:
    """Where ``agent`` writes this work tree's transcript, the lines of one of its sessions
    (two requests; stamped now), and the tokens they hold."""
    if agent == "claude":
        path = project_folder(repo, homes["CLAUDE_CONFIG_DIR"]) / "skewed.jsonl"
        lines = claude_line("m1", "r1", read=100) + claude_line("m2", "r2", read=100)
        return path, lines, 2 * 113
    if agent == "codex":
        path = homes["CODEX_HOME"] / "sessions" / time.strftime("%Y/%m/%d") / "rollout-x.jsonl"
        return path, codex_lines(str(repo), [(1000, 200, 50), (2500, 1200, 80)]), 2580
    chats = homes["GEMINI_CLI_HOME"] / ".gemini" / "tmp" / sha256(str(repo).encode()).hexdigest()
    messages = [gemini_message("x1", GEMINI_TOKENS), gemini_message("x2", GEMINI_TOKENS)]
    if agent == "gemini-json":  # the older form: one document, rewritten whole
        doc = json.dumps({"sessionId": "g", "messages": messages}, indent=2)
        return chats / "chats" / "session-old.json", doc, 2 * 16276
    jsonl = "".join(json.dumps(x) + "\n" for x in [{"sessionId": "g"}, *messages])
    return chats / "chats" / "session-x.jsonl", jsonl, 2 * 16276


def restamped_document(text: str, seconds: float) -> str:
    doc = json.loads(text)
    doc["messages"] = [{**m, "timestamp": ts(seconds)} for m in doc["messages"]]
    return json.dumps(doc, indent=2)


def write_skewed(path: Path, text: str, seconds: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    json_doc = path.suffix == ".json"
    path.write_text(restamped_document(text, seconds) if json_doc else restamped(text, seconds))


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini", "gemini-json"])
def test_a_first_import_takes_what_an_agent_two_hours_behind_wrote_in_the_session(
    repo: Path, agent_homes: dict[str, Path], agent: str
) -> None:
    """No agent hook bound the transcript: the first import alone must see that its lines,
    stamped two hours before the session started, were written since."""
    path, text, tokens = transcript(repo, agent_homes, agent)
    write_skewed(path, text, -7200)
    assert json.loads(tg(repo, "usage", "import", "--json").stdout)["tokens"] == tokens
    assert status(repo)["spend"]["total"] == tokens


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini", "gemini-json"])
def test_a_transcript_written_before_the_session_is_not_counted(
    repo: Path, agent_homes: dict[str, Path], agent: str
) -> None:
    path, text, _ = transcript(repo, agent_homes, agent)
    write_skewed(path, text, -7200)
    os.utime(path, (time.time() - 7200, time.time() - 7200))  # and last written then
    tg(repo, "usage", "import")
    assert status(repo)["spend"]["total"] == 0


def test_an_old_conversation_taken_up_again_counts_only_what_is_new(
    repo: Path, agent_homes: dict[str, Path]
) -> None:
    """A right clock: requests from before the session, then the user's new prompt, written
    now (its stamp, not the file's age, shows the writer's clock is right)."""
    path = project_folder(repo, agent_homes["CLAUDE_CONFIG_DIR"]) / "taken-up.jsonl"
    old = claude_line("m1", "r1", read=100, at=ts(-7200)) + claude_line("m2", "r2", at=ts(-7100))
    path.write_text(old + user_line())
    tg(repo, "usage", "import")
    assert status(repo)["spend"]["total"] == 0


def more_requests(agent: str) -> tuple[str, int]:
    """Two more requests of the session ``transcript`` wrote (stamped now), and their tokens."""
    if agent == "claude":
        return claude_line("m3", "r3", read=100) + claude_line("m4", "r4", read=100), 2 * 113
    if agent == "codex":
        events = token_counts([(4000, 1300, 90), (5500, 2300, 120)])
        return "".join(json.dumps(e) + "\n" for e in events), 1510 + 1530
    extra = [gemini_message("x3", GEMINI_TOKENS), gemini_message("x4", GEMINI_TOKENS)]
    return "".join(json.dumps(x) + "\n" for x in extra), 2 * 16276


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_an_agent_clock_ahead_does_not_count_what_it_wrote_before_the_session(
    repo: Path, agent_homes: dict[str, Path], agent: str
) -> None:
    """A clock two hours ahead: lines written an hour before the session (stamped an hour
    after its start), then the session's own (stamped two hours ahead of now)."""
    path, text, _ = transcript(repo, agent_homes, agent)
    later, tokens = more_requests(agent)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(restamped(text, 3600) + restamped(later, 7200))
    tg(repo, "usage", "import")
    assert status(repo)["spend"]["total"] == tokens


def test_a_clock_that_went_back_does_not_resume_an_older_checkpoint(repo: Path) -> None:
    """The first save was made while the clock was years ahead (its tag's name, its commit
    and tag dates); the second once it was right again: neither the newest name nor the
    newest date is the newest save, the history is."""
    ahead_env = {
        "GIT_COMMITTER_DATE": "2099-12-31T12:00:00Z",
        "GIT_AUTHOR_DATE": "2099-12-31T12:00:00Z",
    }
    tg(repo, "checkpoint", "-m", "first", env=ahead_env)
    first = git(repo, "describe", "--tags", "--match", "checkpoint/*", "--exact-match")
    ahead = re.sub(r"checkpoint/\d{8}T", "checkpoint/20991231T", first.stdout.strip())
    git(repo, "tag", ahead, first.stdout.strip())  # named while the clock was ahead
    git(repo, "tag", "-d", first.stdout.strip())
    (repo / "more.txt").write_text("more\n")
    git(repo, "add", "more.txt")
    commit(repo, "-m", "more")
    tg(repo, "checkpoint", "-m", "second")  # the clock is right again: an earlier name
    second = git(repo, "rev-parse", "HEAD").stdout.strip()
    assert resume_json(repo)["checkpoint"]["commit"] == second


# ---- item 19: output filtering -----------------------------------------------------------------
BIDI = "\u202e\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u200e\u200f\u061c"
RAW = "\x85\x9b\x7f"


def test_bidi_c1_and_del_never_reach_a_terminal_or_a_report(repo: Path, tmp_path: Path) -> None:
    title = f"task{BIDI}{RAW}end"
    tg(repo, "task", "add", "plain")
    path = ledger_file(repo)
    session = status(repo)["session"]["id"]
    with path.open("a") as fh:
        fh.write(
            f'b1 = {{ kind = "task", at = "{ts()[:19]}Z", session = "{session}", op = "add", '
            f"title = {json.dumps(title)} }}\n"
        )
    git(repo, "add", "-A")
    commit(repo, "-m", "bidi")
    tg(repo, "checkpoint")
    outputs = [
        run(repo, "task", "list").stdout,
        run(repo, "status").stdout,
        run(repo, "resume").stdout,
        (repo / "CHECKPOINT.md").read_text(),
    ]
    report = tmp_path / "report.html"
    tg(repo, "report", "-o", str(report))
    outputs.append(report.read_text())
    for text in outputs:
        assert not set(BIDI + RAW) & set(text), repr(text[:200])
    assert "taskend" in outputs[0]


def test_a_file_named_with_a_backslash_is_not_missing_in_resume(repo: Path) -> None:
    name = "back\\slash.txt"
    (repo / name).write_text("x\n")
    git(repo, "add", "--", name)
    commit(repo, "-m", "backslash")
    tg(repo, "checkpoint")
    data = resume_json(repo)
    statuses = {i["path"]: i["status"] for i in data["integrity"]}
    assert statuses[name] == "intact"
