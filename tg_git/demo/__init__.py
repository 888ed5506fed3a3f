"""`tg-git demo`: the whole job on a built-in agent session, in a throwaway repository.

The demo drives the real product: `git commit` through the hooks `tg-git install` wrote, the
real checkpoint saves and tags, a real clone and `tg-git resume`. The session's texts ship in
this package (``session.json``). The budget is sized from the estimator's own counts of those
texts, so the session crosses warning, force-save and halt at distinct commits whatever the
profile's exact figures are. The demo checks its own story from machine-readable facts
(`status --json`, `git tag -l`, exit codes) and exits non-zero when it did not happen.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from tg_git.domain.errors import TgGitError
from tg_git.repo import git

Entry = Callable[[list[str]], int]  # the console script's `main`: argv in, exit code out

TAGS = "checkpoint/*"


def load_session() -> dict[str, Any]:
    text = resources.files("tg_git.demo").joinpath("session.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def demo_env(scratch: Path) -> dict[str, str]:
    """An environment of its own: pinned identity, no global or system git config (so no
    `core.hooksPath`, template hooks, signing or missing `user.email` of the user's), no
    inherited GIT_* or TG_GIT_* variable (a `TG_GIT_ALLOW_HALT` would lift the halt)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "TG_GIT_"))}
    config = scratch / "gitconfig"
    config.write_text(
        "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
        "[commit]\n\tgpgsign = false\n[tag]\n\tgpgsign = false\n",
        encoding="utf-8",
    )
    templates = scratch / "templates"
    templates.mkdir(exist_ok=True)
    env.update(
        GIT_CONFIG_GLOBAL=str(config),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_TEMPLATE_DIR=str(templates),
        GIT_AUTHOR_NAME="tg-git demo agent",
        GIT_AUTHOR_EMAIL="agent@demo.invalid",
        GIT_COMMITTER_NAME="tg-git demo agent",
        GIT_COMMITTER_EMAIL="agent@demo.invalid",
    )
    return env


def added_text(content: str) -> str:
    """What the hook counts for a new file: its lines, as the staged diff's `+` lines."""
    return "\n".join(content.splitlines())


def size_budget(
    used: list[int], warning: float = 80.0, force_save: float = 90.0, halt: float = 95.0
) -> int:
    """A budget that puts the third-to-last commit past warning, the next past force-save and
    the last past halt (``used``: the session's total after each commit), centred in the
    window the thresholds leave, so a slightly different estimate still tells the same story."""
    before, warn_at, save_at, halt_at = (float(u) for u in used[-4:])
    low = max(before / warning, warn_at / force_save, save_at / halt) * 100
    high = min(warn_at / warning, save_at / force_save, halt_at / halt) * 100
    if low >= high:  # the counts moved too far: aim the last commit just past halt
        return int(halt_at * 100 / (halt + 2))
    return int((low + high) / 2)


@dataclass
class Story:
    levels: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    refused: bool = False
    modified_reported: bool = False

    def problems(self, saves_in_log: int) -> list[str]:
        wanted = ["warning", "force-save", "halt"]
        seen = [lvl for lvl in wanted if lvl in self.levels]
        out = []
        if seen != wanted or self.levels != sorted(self.levels, key=_rank):
            out.append(f"levels went {' -> '.join(self.levels)}")
        if len(self.tags) != 2 or saves_in_log != len(self.tags):
            out.append(f"{len(self.tags)} checkpoint tags and {saves_in_log} checkpoint commits")
        if not self.refused:
            out.append("the commit past halt was not refused")
        if not self.modified_reported:
            out.append("resume in the clone did not report the changed file")
        return out


def _rank(level: str) -> int:
    return (
        ["ok", "warning", "force-save", "halt"].index(level)
        if level in ("ok", "warning", "force-save", "halt")
        else 4
    )


class Runner:
    """Runs git and tg-git in the demo's repositories and shows each command as it goes."""

    def __init__(self, env: dict[str, str], entry: Entry) -> None:
        self.env = env
        self.entry = entry  # ``tg_git.main.main``, handed down by the CLI (no import upward)

    def run(self, cwd: Path, *args: str, show: bool = True, quiet: bool = False) -> git.Shown:
        """``args`` start with "git" or "tg-git"; output is shown unless ``quiet``.

        git runs as a process (a commit goes through the installed hooks, which start tg-git
        as their own processes); tg-git's own commands run in this process, through the same
        ``main`` as the console script, because starting Python ~40 times would cost seconds."""
        if show:
            print(f"$ {' '.join(_quote(a) for a in args)}")
        if args[0] == "tg-git":
            proc = self._in_process(cwd, list(args[1:]))
        else:
            proc = git.run_shown(args[1:], cwd, self.env)
        if not quiet:
            for line in proc.stdout.rstrip("\n").splitlines():
                print(f"  {line}")
        return proc

    def _in_process(self, cwd: Path, argv: list[str]) -> git.Shown:
        out = io.StringIO()
        saved_env, saved_cwd = dict(os.environ), os.getcwd()
        os.environ.clear()
        os.environ.update(self.env)
        try:
            os.chdir(cwd)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                code = self.entry(argv)
        finally:
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
        return git.Shown(code, out.getvalue())

    def must(self, cwd: Path, *args: str, show: bool = True, quiet: bool = False) -> str:
        proc = self.run(cwd, *args, show=show, quiet=quiet)
        if proc.returncode != 0:
            raise TgGitError(
                f"demo step `{' '.join(args)}` failed (exit {proc.returncode}): "
                f"{proc.stdout.strip()[-300:]}; rerun with --keep and look in the repository."
            )
        return proc.stdout

    def status(self, repo: Path) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(
            self.must(repo, "tg-git", "status", "--json", show=False, quiet=True)
        )
        return data

    def tags(self, repo: Path) -> list[str]:
        return self.must(repo, "git", "tag", "-l", TAGS, show=False, quiet=True).split()


def _quote(arg: str) -> str:
    return (
        arg
        if arg and all(c.isalnum() or c in "-_./=:*%" for c in arg)
        else json.dumps(arg, ensure_ascii=False)
    )


def _write(root: Path, files: dict[str, str]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


def run_demo(entry: Entry, keep: bool = False, language: str = "en") -> int:
    from tg_git.estimate.estimator import estimate_tokens  # lazy: 1.2 ms

    data = load_session()
    texts: dict[str, str] = {k: v[language] for k, v in data["say"].items()}
    steps: list[dict[str, Any]] = data["steps"]
    request = data["request"][language]
    used = [estimate_tokens(request)]
    for step in steps[:-1]:  # the last step is the refused one
        tokens = sum(estimate_tokens(added_text(c), p) for p, c in step["files"].items())
        used.append(used[-1] + tokens)
    budget = size_budget(used[1:])

    scratch = Path(tempfile.mkdtemp(prefix="tg-git-demo-"))
    repo, clone = scratch / data["project"], scratch / f"{data['project']}-clone"
    try:
        problems = _play(
            Runner(demo_env(scratch), entry), data, texts, language, budget, repo, clone
        )
    except BaseException:
        if not keep:
            shutil.rmtree(scratch, ignore_errors=True)
        raise
    print()
    if keep:
        print(texts["kept"].format(repo=repo, clone=clone))
    else:
        shutil.rmtree(scratch, ignore_errors=True)
        print(texts["removed"].format(repo=repo, clone=clone))
    if problems:
        raise TgGitError(texts["story_bad"].format(what="; ".join(problems)))
    return 0


def _play(
    run: Runner,
    data: dict[str, Any],
    texts: dict[str, str],
    language: str,
    budget: int,
    repo: Path,
    clone: Path,
) -> list[str]:
    steps: list[dict[str, Any]] = data["steps"]
    story = Story()
    print(texts["title"].format(project=data["project"], n=len(steps), budget=budget))
    print(texts["where"].format(path=repo))
    print()
    repo.mkdir(parents=True)
    run.must(repo, "git", "init", "-q")
    # Belt and braces for a git older than 2.32 (no GIT_CONFIG_GLOBAL): a global
    # core.hooksPath must never receive the demo's hooks.
    hooks = run.must(repo, "git", "rev-parse", "--absolute-git-dir", show=False, quiet=True)
    run.must(repo, "git", "config", "core.hooksPath", f"{hooks.strip()}/hooks", show=False)
    run.must(repo, "tg-git", "init", "--max-tokens", str(budget), "--language", language)
    run.must(repo, "tg-git", "install")
    run.must(repo, "git", "commit", "-q", "-m", texts["setup_commit"])
    run.must(repo, "tg-git", "record", "--input", data["request"][language])
    for step in steps:
        run.must(repo, "tg-git", "task", "add", step["task"][language], quiet=True, show=False)
    run.must(repo, "tg-git", "note", data["context"][language], quiet=True, show=False)
    print(texts["planned"].format(n=len(steps)))

    for n, step in enumerate(steps, start=1):
        print()
        print(texts["step"].format(n=n, total=len(steps), message=step["message"][language]))
        task = step["task"][language]
        at = ["--at", step["at"][language]] if step["at"][language] else []
        run.must(repo, "tg-git", "task", "start", task, *at, show=False, quiet=True)
        _write(repo, step["files"])
        run.must(repo, "git", "add", "--", *step["files"], show=False)
        head = run.must(repo, "git", "rev-parse", "HEAD", show=False, quiet=True).strip()
        tags_before = run.tags(repo)
        proc = run.run(repo, "git", "commit", "-m", step["message"][language])
        if proc.returncode != 0:
            staged = run.must(
                repo, "git", "diff", "--cached", "--name-only", show=False, quiet=True
            )
            now = run.must(repo, "git", "rev-parse", "HEAD", show=False, quiet=True).strip()
            story.refused = now == head and all(p in staged.split() for p in step["files"])
            print(texts["refused"].format(code=proc.returncode))
            break
        run.must(repo, "tg-git", "task", "done", task, show=False, quiet=True)
        level = str(run.status(repo)["level"])
        story.levels.append(level)
        for tag in sorted(set(run.tags(repo)) - set(tags_before)):
            subject = run.must(
                repo, "git", "log", "-1", "--format=%h %s", tag, show=False, quiet=True
            ).strip()
            print(texts["saved"].format(commit=subject, tag=tag))
            story.tags.append(tag)
        if level == "warning" and "warning" not in story.levels[:-1]:
            run.must(repo, "tg-git", "next", data["next"][language], show=False, quiet=True)

    print()
    log = run.must(repo, "git", "log", "--oneline", "--grep", "checkpoint")
    saves_in_log = len(log.splitlines())
    run.must(repo, "git", "tag", "-l", TAGS)
    run.must(repo, "tg-git", "status")

    print()
    print(texts["clone"].format(clone=clone))
    run.must(repo.parent, "git", "clone", "-q", repo.name, clone.name)
    edited = clone / data["edit"]
    with edited.open("a", encoding="utf-8") as out:
        out.write(texts["edit_line"] + "\n")
    print(texts["edited"].format(file=data["edit"]))
    resumed = run.run(clone, "tg-git", "resume")
    story.modified_reported = resumed.returncode == 0 and data["edit"] in resumed.stdout
    return story.problems(saves_in_log)
