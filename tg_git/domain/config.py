"""``.tg-git/config.toml``: the budget, thresholds, estimator profile, language, file globs.

Pure: TOML text in, a ``Config`` out (reading the file is ``tg_git.repo.configfile``'s).
Reads take the standard library's ``tomllib`` where there is one (it is several times
faster to import than tomlkit, and the hook reads the config on every commit); every write
goes through tomlkit so a user's comments and layout survive.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tg_git.domain.errors import CorruptFile
from tg_git.domain.layout import (
    ALWAYS_EXCLUDED,
    CHECKPOINT_ROOT,
    CONFIG_PATH,
    checkpoint_dir,
    checkpoint_dir_problem,
    checkpoint_files,
    is_ledger_file,
)
from tg_git.domain.tomltext import parse
from tg_git.domain.typed import NamedTuple

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:
    from typing import Any

DEFAULT_EXCLUDES = (
    "*.lock",
    "*.lockb",
    "package-lock.json",
    "pnpm-lock.yaml",
    "npm-shrinkwrap.json",
    "go.sum",
)
DEFAULT_MAX_TOKENS = 200_000
LANGUAGES = ("en", "ko")
BUDGET_SOURCES = ("auto", "estimate")  # auto: measured usage from agent logs when there is some
OUTSIDE = ("ignore", "report", "refuse")  # `verify.outside`: commits no tg-git session made


class Config(NamedTuple):
    max_tokens: int = DEFAULT_MAX_TOKENS
    warning: float = 80.0
    force_save: float = 90.0
    halt: float = 95.0
    profile: str = "o200k"
    language: str = "en"
    project_name: str = ""
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    critical_context: tuple[str, ...] = ()
    budget_source: str = "auto"
    budget_context: int | None = None  # `budget.context`: None = "auto" (the agent's window)
    spend_tokens: int | None = None  # `budget.spend_tokens`: None = off
    spend_usd: float | None = None  # `budget.spend_usd`: None = off
    window_5h: float | None = None  # `budget.window_5h`: share of the plan's 5-hour window
    window_7d: float | None = None  # `budget.window_7d`: share of its 7-day window (None: off)
    export_push: str = ""  # `export.push`: a Pushgateway a commit's hook pushes to ("": none)
    export_otlp: str = ""  # `export.otlp`: an OTLP/HTTP metrics endpoint ("": none)
    export_timeout: float = 2.0  # `export.timeout`: seconds each push may take
    verify_outside: str = "report"  # `verify.outside`: one of OUTSIDE
    checkpoint_dir: str = CHECKPOINT_ROOT  # `checkpoint.dir`: the checkpoint files' folder

    def counts(self, path: str) -> bool:
        """Whether changes to ``path`` count as output tokens."""
        # Only tg-git's own files are free: anything else under .tg-git/ is work like any other.
        if path in ALWAYS_EXCLUDED or is_ledger_file(path):
            return False
        inside = path.startswith(self.checkpoint_dir + "/")
        if (
            self.checkpoint_dir != CHECKPOINT_ROOT
            and inside
            and path in checkpoint_files(self.checkpoint_dir)
        ):
            return False
        name = path.rsplit("/", 1)[-1]

        def matches(globs: tuple[str, ...]) -> bool:
            return any(_glob_match(path, g) or _glob_match(name, g) for g in globs)

        if self.include and not matches(self.include):
            return False
        return not matches(self.exclude)


def _glob_match(name: str, glob: str) -> bool:
    """``fnmatch.fnmatchcase``, with the default globs' two shapes (a plain name, ``*`` and a
    suffix) answered without compiling a regular expression: bench/hook.py measured the
    compiles of the default excludes at ~1 ms of every commit."""
    if "?" not in glob and "[" not in glob:
        stars = glob.count("*")
        if stars == 0:
            return name == glob
        if stars == 1 and glob[0] == "*":
            return name.endswith(glob[1:])
    import fnmatch  # lazy: 0.2 ms (the default globs never get here)

    return fnmatch.fnmatchcase(name, glob)


def _language(data: dict[str, Any]) -> str:
    """The config's language when it is a valid one, else English: an error about another
    value is said in the language the user chose."""
    language = data.get("language")
    return language if isinstance(language, str) and language in LANGUAGES else "en"


def from_mapping(data: dict[str, Any], where: str = CONFIG_PATH) -> Config:
    from tg_git.text import messages  # lazy: 0.4 ms

    lang = _language(data)

    def bad(message: str, /, **values: Any) -> CorruptFile:
        return CorruptFile(messages.text(lang, message, where=where, **values))

    def get(table: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, kind):
            name = getattr(kind, "__name__", "number")
            kind_text = messages.text(lang, f"config_kind.{name}")
            raise bad("config_wrong_type", key=key, kind=kind_text, value=value)
        return value

    def strings(table: dict[str, Any], key: str, default: list[str]) -> tuple[str, ...]:
        values = get(table, key, list, default)
        if not all(isinstance(v, str) for v in values):
            raise bad("config_not_strings", key=key)
        return tuple(values)

    thresholds = data.get("thresholds", {})
    files = data.get("files", {})
    budget = data.get("budget", {})
    if not isinstance(thresholds, dict) or not isinstance(files, dict):
        raise bad("config_not_tables")
    if not isinstance(budget, dict):
        raise bad("config_budget_not_table")
    cfg = Config(
        max_tokens=get(data, "max_tokens", int, DEFAULT_MAX_TOKENS),
        warning=float(get(thresholds, "warning", (int, float), 80)),
        force_save=float(get(thresholds, "force_save", (int, float), 90)),
        halt=float(get(thresholds, "halt", (int, float), 95)),
        profile=get(data, "profile", str, "o200k"),
        language=get(data, "language", str, "en"),
        project_name=get(data, "project_name", str, ""),
        include=strings(files, "include", []),
        exclude=strings(files, "exclude", list(DEFAULT_EXCLUDES)),
        critical_context=strings(data, "critical_context", []),
        budget_source=get(budget, "source", str, "auto"),
        **budgets(budget, bad),
        **exports(data.get("export", {}), bad),
        verify_outside=_outside(data, bad),
        checkpoint_dir=_checkpoint_dir(data, bad, lang),
    )
    if cfg.budget_source not in BUDGET_SOURCES:
        raise bad("config_bad_source", value=cfg.budget_source)
    if cfg.max_tokens <= 0:
        raise bad("config_not_positive")
    from tg_git.domain.eventlog import MAX_COUNT  # lazy: 0.4 ms

    if cfg.max_tokens > MAX_COUNT:  # a session started with it could not be read back
        raise bad("config_too_large", most=f"{MAX_COUNT:.0e}")
    if not 0 < cfg.warning <= cfg.force_save <= cfg.halt <= 100:
        raise bad("config_thresholds_rise")
    if cfg.language not in LANGUAGES:
        raise bad("config_bad_language", value=cfg.language)
    from tg_git.estimate.estimator import PROFILE_NAMES  # lazy: 1.1 ms

    if cfg.profile not in PROFILE_NAMES:
        raise bad("config_bad_profile", value=cfg.profile, names=", ".join(PROFILE_NAMES))
    return cfg


def _outside(data: dict[str, Any], bad: Callable[..., CorruptFile]) -> str:
    """``[verify]``'s ``outside``: what verify does with commits no tg-git session made."""
    table = data.get("verify", {})
    value = table.get("outside", "report") if isinstance(table, dict) else None
    if value not in OUTSIDE:
        raise bad("config_bad_outside", value=value, choices=", ".join(OUTSIDE))
    return str(value)


def _checkpoint_dir(data: dict[str, Any], bad: Callable[..., CorruptFile], lang: str) -> str:
    """``[checkpoint]``'s ``dir``: the folder of the checkpoint files, relative to the root."""

    table = data.get("checkpoint", {})
    value = table.get("dir", CHECKPOINT_ROOT) if isinstance(table, dict) else None
    problem = checkpoint_dir_problem(value) if isinstance(value, str) else "config_kind.str"
    if problem:
        from tg_git.text import messages  # lazy: 0.4 ms

        raise bad("config_bad_checkpoint_dir", value=value, why=messages.text(lang, problem))
    return checkpoint_dir(str(value))


def budgets(table: dict[str, Any], bad: Callable[..., CorruptFile]) -> dict[str, Any]:
    """``[budget]``'s ``context`` ("auto" or a window in tokens), ``spend_tokens`` and
    ``spend_usd`` (absent or 0: off), checked (``bad``: the error of a message key); the
    Config fields they set."""
    context = table.get("context", "auto")
    if context != "auto" and (type(context) is not int or context <= 0):
        raise bad("config_bad_context", value=context)
    tokens = table.get("spend_tokens", 0)
    if type(tokens) is not int or tokens < 0:
        raise bad("config_bad_spend_tokens", value=tokens)
    usd = table.get("spend_usd", 0)
    if isinstance(usd, bool) or not isinstance(usd, (int, float)) or not 0 <= usd < 10**9:
        raise bad("config_bad_spend_usd", value=usd)
    return {
        "budget_context": None if context == "auto" else context,
        "spend_tokens": tokens or None,
        "spend_usd": float(usd) or None,
        **plan_windows(table, bad),
    }


def plan_windows(table: dict[str, Any], bad: Callable[..., CorruptFile]) -> dict[str, Any]:
    """``[budget]``'s ``window_5h`` and ``window_7d``: a share of the plan's window (0.3 or
    "30%"; absent, 0 or "off": off)."""
    fields = {}
    for name in ("window_5h", "window_7d"):
        value = table.get(name, 0)
        try:
            fields[name] = share_of(value)
        except (ValueError, OverflowError):
            raise bad("config_bad_window", key=f"budget.{name}", value=value) from None
    return fields


def share_of(value: Any) -> float | None:
    """``budget.window_*`` as written: a fraction (``0.3``), a percent text (``"30%"``), or
    ``"off"``/``0`` (off); ValueError for anything else. None: off."""
    if isinstance(value, str):
        text = value.strip()
        if text in ("off", "0", ""):
            return None
        if text.endswith("%"):
            number = float(text[:-1])
            if not 0 < number <= 100:
                raise ValueError(value)
            return number / 100
        value = float(text)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(value)
    if value == 0:
        return None
    if not 0 < value <= 1:
        raise ValueError(value)
    return float(value)


EXPORT_MAX_TIMEOUT = 10  # seconds: a push after a commit stays short


def exports(table: object, bad: Callable[..., CorruptFile]) -> dict[str, Any]:
    """``[export]``'s ``push`` and ``otlp`` (http(s) addresses, or absent) and ``timeout``
    (seconds, up to ``EXPORT_MAX_TIMEOUT``), checked; the Config fields they set."""
    if not isinstance(table, dict):
        raise bad("config_bad_export", key="export", value=table)
    fields: dict[str, Any] = {}
    for key in ("push", "otlp"):
        url = table.get(key, "")
        if not isinstance(url, str) or (url and not url.startswith(("http://", "https://"))):
            raise bad("config_bad_export", key=f"export.{key}", value=url)
        fields[f"export_{key}"] = url
    timeout = table.get("timeout", 2.0)
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not (0 < timeout <= EXPORT_MAX_TIMEOUT)
    ):
        raise bad("config_bad_export", key="export.timeout", value=timeout)
    fields["export_timeout"] = float(timeout)
    return fields


def language_in(text: str, unsaid: str = "en") -> str:
    """The language a config text names, from its `language = "..."` line when the text is
    not valid TOML as a whole (``unsaid`` when it has none: the broken text is not read)."""
    try:
        return _language(parse(text))
    except Exception:  # tomllib and tomlkit raise different types
        found = re.search(r'^\s*language\s*=\s*"(\w+)"', text, re.M)
        return _language({"language": found[1]}) if found else unsaid


def default_text(max_tokens: int, language: str, project_name: str) -> str:
    """A commented config for ``tg-git init``, built with tomlkit."""
    import tomlkit  # lazy: 24.9 ms

    doc = tomlkit.document()
    doc.add(
        tomlkit.comment("tg-git: Token Guard for Git. Edit freely; tg-git keeps your comments.")
    )
    doc.add(
        tomlkit.comment(
            "A session's budget is fixed when it starts (init, resume, `tg-git session start`)."
        )
    )
    doc.add(tomlkit.nl())
    doc.add("max_tokens", max_tokens)
    doc["max_tokens"].comment("tokens per agent session (input + output)")
    doc.add("language", language)
    doc["language"].comment("messages: en | ko")
    doc.add("profile", "o200k")
    doc["profile"].comment("estimator: o200k | cl100k | claude | llama3 | qwen3 | seed")
    doc.add("project_name", project_name)
    doc.add("critical_context", tomlkit.array())
    doc["critical_context"].comment("lines every checkpoint carries to the next session")
    doc.add(tomlkit.nl())
    thresholds = tomlkit.table()
    thresholds.add(tomlkit.comment("percent of max_tokens"))
    thresholds.add("warning", 80)
    thresholds.add("force_save", 90)
    thresholds.add("halt", 95)
    doc.add("thresholds", thresholds)
    files = tomlkit.table()
    files.add(tomlkit.comment("globs; a path counts when it matches include (or include is empty)"))
    files.add(
        tomlkit.comment(
            "and no exclude. .tg-git/, .gitattributes and checkpoint files never count."
        )
    )
    files.add("include", tomlkit.array())
    excludes = tomlkit.array()
    excludes.extend(DEFAULT_EXCLUDES)
    files.add("exclude", excludes)
    doc.add("files", files)
    return tomlkit.dumps(doc)
