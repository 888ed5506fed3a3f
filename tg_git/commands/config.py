"""`tg-git config get|set KEY [VALUE]`: read or change the config, validated, through tomlkit
(a user's comments and layout survive)."""

from __future__ import annotations

import json
from typing import Any

from tg_git.domain import config as config_mod
from tg_git.domain.budget import RECORDED
from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.services.configure import checkpoint_dir, record, set_value
from tg_git.services.startup import open_workspace
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
    "budget.window_5h": ("share", "30%"),
    "budget.window_7d": ("share", "10%"),
    "verify.outside": ("choice", "report"),
    "budget.source": ("choice", "estimate"),
    "checkpoint.dir": ("folder", ".tg-git/checkpoint"),
}
FIELD = {"budget.context": "budget_context", "budget.spend_tokens": "spend_tokens",
         "budget.spend_usd": "spend_usd", "budget.source": "budget_source",
         "budget.window_5h": "window_5h", "budget.window_7d": "window_7d",
         "checkpoint.dir": "checkpoint_dir"}  # fmt: skip


def _unknown(key: str, lang: str) -> TgGitError:
    return TgGitError(
        messages.text(lang, "config_unknown_key", key=key, keys=", ".join(KEYS)), ExitCode.USAGE
    )


def _current(cfg: config_mod.Config, key: str) -> Any:
    value = cfg._asdict()[FIELD.get(key, key.removeprefix("thresholds.").replace(".", "_"))]
    if key in FIELD and value is None and key != "checkpoint.dir":
        return "auto" if key == "budget.context" else "off"
    if KEYS[key][0] == "share":
        from tg_git.domain.windows import shown_share  # lazy: 0.7 ms

        return shown_share(value)
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
    if kind == "share":
        from tg_git.domain.windows import share_of  # lazy: 0.7 ms

        try:
            share = share_of(raw)
        except (ValueError, OverflowError):
            raise bad(messages.text(lang, "config_kind.share")) from None
        return share or 0
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
        from tg_git.estimate.estimator import PROFILE_NAMES  # lazy: 1.1 ms

        choices = {
            "language": config_mod.LANGUAGES,
            "budget.source": config_mod.BUDGET_SOURCES,
            "verify.outside": config_mod.OUTSIDE,
        }.get(key, PROFILE_NAMES)
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
    from tg_git.domain import schema  # lazy: 9.2 ms

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
    ws = open_workspace()
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
    if key == "checkpoint.dir":
        new = checkpoint_dir(ws, new)
    set_value(ws, key, new)
    print(messages.text(lang, "config_set", key=key, value=new))
    if key == "max_tokens":
        print(messages.text(lang, "config_next_session"))
    if key in RECORDED or key in ("max_tokens", "checkpoint.dir"):
        record(ws, key, new)  # budgets change only on the record
    return 0
