"""Changing the config: ``tg-git config set`` and ``tg-git init`` write through tomlkit (a user's
comments and layout survive), after checking that the whole result loads and keeps the budget's
levels apart; a budget changed in a session is recorded in its ledger."""

from __future__ import annotations

from typing import Any

from tg_git.domain import config as config_mod
from tg_git.domain import layout, levels
from tg_git.domain.errors import CorruptFile, ExitCode, TgGitError
from tg_git.repo.ledger import write_atomic
from tg_git.repo.workspace import Workspace, inside
from tg_git.services.startup import open_workspace


def set_value(ws: Workspace, key: str, value: Any) -> None:
    """Write ``key = value`` into the config file, after checking the whole result loads and
    keeps the levels of the budget apart."""
    import tomlkit  # lazy: 27.1 ms

    path = inside(ws, layout.CONFIG_PATH)
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    doc = tomlkit.parse(text)
    table, dot, name = key.partition(".")
    if dot:
        if table not in doc:
            doc[table] = tomlkit.table()
        doc[table][name] = value  # type: ignore[index]
    else:
        doc[key] = value
    try:
        new_config = config_mod.from_mapping(doc.unwrap())
    except CorruptFile as exc:
        raise TgGitError(str(exc), ExitCode.USAGE) from None
    problem = levels.check_budget(new_config.max_tokens, new_config, ws.config.language)
    if problem:
        raise TgGitError(problem, ExitCode.USAGE)
    write_atomic(path, tomlkit.dumps(doc))


def checkpoint_dir(ws: Workspace, value: str) -> str:
    """``value`` as ``checkpoint.dir`` keeps it, once checked: a relative folder inside the
    work tree, not in ``.git``, no symbolic link or file on the way (one sentence if not)."""
    from tg_git.repo import checkpoints  # lazy: 3.4 ms

    checkpoints.files(ws, value)
    return layout.checkpoint_dir(value)


def record(ws: Workspace, key: str, value: Any) -> None:
    """A budget changed in a session is recorded in its ledger (a raised spend budget lifts
    a spend halt: the ledger says when and to what)."""
    session = open_workspace(ws.repo.root).session()
    if session is None:
        return
    ws.add_event("budget", label=key, text=str(value))
