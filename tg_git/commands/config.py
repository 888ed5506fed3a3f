"""`tg-git config get|set KEY [VALUE]`: read or change the config, validated, through tomlkit
(a user's comments and layout survive)."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Any

from tg_git.domain import config as config_mod
from tg_git.domain import layout, levels
from tg_git.domain.errors import CorruptFile, ExitCode, TgGitError
from tg_git.repo.workspace import Workspace
from tg_git.text import messages

# key: (kind, example); thresholds.* live in the [thresholds] table
KEYS: dict[str, tuple[str, str]] = {
    "max_tokens": ("int", "200000"),
    "language": ("choice", "ko"),
    "profile": ("choice", "o200k"),
    "project_name": ("str", "my-project"),
    "thresholds.warning": ("percent", "80"),
    "thresholds.force_save": ("percent", "90"),
    "thresholds.halt": ("percent", "95"),
    "budget.context": ("context", "auto"),
    "budget.spend_tokens": ("spend", "2000000"),
    "budget.spend_usd": ("usd", "20"),
}
FIELD = {"budget.context": "budget_context", "budget.spend_tokens": "spend_tokens",
         "budget.spend_usd": "spend_usd"}  # fmt: skip


def _unknown(key: str, lang: str) -> TgGitError:
    return TgGitError(
        messages.text(lang, "config_unknown_key", key=key, keys=", ".join(KEYS)), ExitCode.USAGE
    )


def _current(cfg: config_mod.Config, key: str) -> Any:
    value = cfg._asdict()[FIELD.get(key, key.removeprefix("thresholds."))]
    if key in FIELD and value is None:
        return "auto" if key == "budget.context" else "off"
    return value


def _parse(key: str, raw: str, lang: str) -> Any:
    kind, example = KEYS[key]

    def bad(what: str) -> TgGitError:
        return TgGitError(messages.text(lang, "config_bad_value", key=key, kind=what, value=raw,
                                        example=example), ExitCode.USAGE)  # fmt: skip

    if kind == "int" or (kind in ("context", "spend") and raw.strip().isdigit()):
        if not raw.strip().isdigit() or (kind == "context" and int(raw) == 0):
            raise bad(messages.text(lang, "config_kind.tokens"))
        return int(raw)
    if kind in ("context", "spend", "usd") and raw.strip() in ("auto", "off"):
        if (raw.strip() == "auto") != (kind == "context"):
            raise bad(messages.text(lang, f"config_kind.{kind}"))
        return 0 if kind != "context" else "auto"
    if kind == "usd":
        return _usd(raw, bad(messages.text(lang, "config_kind.usd")))
    if kind in ("context", "spend"):
        raise bad(messages.text(lang, f"config_kind.{kind}"))
    if kind == "percent":
        try:
            value = float(raw)
        except ValueError:
            raise bad(messages.text(lang, "config_kind.percent")) from None
        if not 0 < value <= 100:
            raise bad(messages.text(lang, "config_kind.percent"))
        return int(value) if value.is_integer() else value
    if kind == "choice":
        from tg_git.estimate.estimator import PROFILE_NAMES

        choices = config_mod.LANGUAGES if key == "language" else PROFILE_NAMES
        if raw not in choices:
            raise bad(messages.text(lang, "config_kind.choice", choices=", ".join(choices)))
        return raw
    if not raw.strip() or any(ord(c) < 32 for c in raw):
        raise bad(messages.text(lang, "config_kind.line"))
    if key == "project_name" and len(raw) > _longest_name():
        raise TgGitError(
            messages.text(lang, "project_name_long", most=_longest_name()), ExitCode.USAGE
        )
    return raw


def _longest_name() -> int:
    """The longest project name a checkpoint holds (its schema's bound)."""
    from tg_git.domain import schema

    session = schema.checkpoint_schema(schema.LATEST)["properties"]["session"]
    return int(session["properties"]["project_name"]["maxLength"])


def _usd(raw: str, bad: TgGitError) -> float | int:
    try:
        value = float(raw)
    except ValueError:
        raise bad from None
    if not 0 <= value < 10**9:  # NaN fails too
        raise bad
    return int(value) if value.is_integer() else value


def config(*, action: str, key: str, value: str | None, as_json: bool) -> int:
    ws = Workspace.open()
    lang = ws.config.language
    if key not in KEYS:
        raise _unknown(key, lang)
    if action == "get":
        current = _current(ws.config, key)
        print(json.dumps({"key": key, "value": current}) if as_json else current)
        return 0
    if value is None:
        raise TgGitError(messages.text(lang, "config_needs_value"), ExitCode.USAGE)
    new = _parse(key, value, lang)
    set_value(ws, key, new)
    print(messages.text(lang, "config_set", key=key, value=new))
    if key == "max_tokens":
        print(messages.text(lang, "config_next_session"))
    if key in FIELD:
        _record(ws, key, new)
    return 0


def _record(ws: Workspace, key: str, value: Any) -> None:
    """A budget changed in a session is recorded in its ledger (a raised spend budget lifts
    a spend halt: the ledger says when and to what)."""
    session = Workspace.open(ws.repo.root).session()
    if session is None:
        return
    ws.add_event("budget", label=key, text=str(value))


def set_value(ws: Workspace, key: str, value: Any) -> None:
    """Write ``key = value`` into the config file, after checking the whole result loads and
    keeps the levels of the budget apart."""
    import tomlkit

    from tg_git.repo.ledger import write_atomic

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


def inside(ws: Workspace, rel: str) -> Path:
    """The path of ``rel`` in the work tree, when neither it nor a folder on the way is a
    symbolic link: a cloned repository can track ``.tg-git`` as a link to any folder of the
    user's, and tg-git must write nothing outside the clone."""
    current = ws.repo.root
    for part in PurePosixPath(rel).parts:
        current = current / part
        if current.is_symlink():
            shown = current.relative_to(ws.repo.root).as_posix()
            raise TgGitError(messages.text(ws.config.language, "write_through_link", path=shown))
    return current
