"""A repository with tg-git in it: its config, its ledger, and the writes commands make.

Commands that add events write the ledger and stage it at once, so the ledger never has
unstaged edits of tg-git's own making (the pre-commit framework's stash would fight them).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tg_git import config as config_mod
from tg_git import git, ledger
from tg_git.config import LEDGER_PATH, Config
from tg_git.errors import NotReady, TgGitError

UNSTAGED_LEDGER = (
    f"{LEDGER_PATH} has unstaged edits; stage them (`git add {LEDGER_PATH}`) or drop them "
    f"(`git checkout -- {LEDGER_PATH}`), then try again."
)


@dataclass
class Workspace:
    repo: git.Repo
    config: Config

    @classmethod
    def open(
        cls, start: str | os.PathLike[str] | None = None, require_init: bool = True
    ) -> Workspace:
        repo = git.find_repo(start)
        ws = cls(repo, config_mod.load(repo.root))
        if require_init and not ws.initialised:
            raise NotReady("tg-git is not set up in this repository; run `tg-git init` first.")
        return ws

    @property
    def initialised(self) -> bool:
        return (self.repo.root / config_mod.CONFIG_PATH).is_file() or self.ledger_path.is_file()

    @property
    def ledger_path(self) -> Path:
        return self.repo.root / LEDGER_PATH

    def ledger_text(self) -> str | None:
        return ledger.read_text(self.ledger_path)

    def events(self) -> dict[str, ledger.Event]:
        text = self.ledger_text()
        return ledger.parse(text) if text else {}

    def session(self) -> ledger.Session | None:
        return ledger.replay(self.events())

    def require_session(self) -> ledger.Session:
        session = self.session()
        if session is None:
            raise NotReady("no tg-git session has started here; run `tg-git session start`.")
        return session

    def check_ledger_staged(self) -> None:
        """Refuse to write over a user's unstaged edit of the ledger."""
        text = self.ledger_text()
        staged = git.blob_at(self.repo, ":", LEDGER_PATH)
        if text is not None and staged is not None and text.encode("utf-8") != staged:
            raise TgGitError(UNSTAGED_LEDGER)

    def append(self, *lines: str) -> None:
        """Append event lines to the ledger, write it atomically and stage it."""
        self.check_ledger_staged()
        ledger.parse("".join(lines))  # never write a line that would not read back
        text = ledger.appended(self.ledger_text(), lines)
        ledger.write_atomic(self.ledger_path, text)
        self.repo.git("add", "--", LEDGER_PATH)

    def add_event(self, kind: str, **fields: Any) -> str:
        """Append one event of the current session; returns its key."""
        session = self.require_session()
        key, line = ledger.event_line(kind, session=session.id, **fields)
        self.append(line)
        return key

    def start_session(
        self, max_tokens: int | None = None, carry: dict[str, Any] | None = None
    ) -> str:
        """Start a new session; the plan of the previous one (or ``carry``) comes along."""
        if carry is None:
            previous = self.session()
            carry = plan_of(previous) if previous else {}
        session_id = "s" + ledger.new_key()[1:]
        _, line = ledger.event_line(
            "session",
            id=session_id,
            max_tokens=max_tokens or self.config.max_tokens,
            base=git.head(self.repo) or "",
            **carry,
        )
        self.append(line)
        return session_id


def plan_of(session: ledger.Session) -> dict[str, Any]:
    """What a new session carries over: pending and in-progress work, context, next steps."""
    return {
        "pending": session.titles("pending"),
        "in_progress": [
            {"task": t.title, "stopping_point": t.stopping_point, "blockers": list(t.blockers)}
            for t in session.tasks.values()
            if t.status in ("in_progress", "blocked")
        ],
        "context": list(session.context),
        "next": list(session.next_steps),
    }
