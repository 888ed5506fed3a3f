"""``.tg-git/config.toml``: the budget, thresholds, estimator profile, language, file globs.

Reads take the standard library's ``tomllib`` where there is one (it is several times
faster to import than tomlkit, and the hook reads the config on every commit); every write
goes through tomlkit so a user's comments and layout survive.
"""

from __future__ import annotations

import fnmatch
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from tg_git.errors import CorruptFile, Said, os_reason

CONFIG_DIR = ".tg-git"
CONFIG_PATH = f"{CONFIG_DIR}/config.toml"
LEDGER_PATH = f"{CONFIG_DIR}/ledger.toml"  # the single ledger of tg-git 0.1: still read
LEDGER_DIR = f"{CONFIG_DIR}/ledger"  # one file a session: `.tg-git/ledger/<session>.toml`
LEDGER_ATTRIBUTES = (f"{LEDGER_PATH} merge=union", f"{LEDGER_DIR}/*.toml merge=union")
CHECKPOINT_JSON = "harness_checkpoint.json"
CHECKPOINT_MD = "CHECKPOINT.md"
ALWAYS_EXCLUDED = (CONFIG_PATH, LEDGER_PATH, ".gitattributes", CHECKPOINT_JSON, CHECKPOINT_MD)
_SAFE_SESSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,79}")


def is_ledger_file(path: str) -> bool:
    """A file tg-git keeps events in: the old single ledger or a per-session one."""
    if path == LEDGER_PATH:
        return True
    folder, _, name = path.rpartition("/")
    return folder == LEDGER_DIR and name.endswith(".toml") and "/" not in name


def ledger_file(session_id: str) -> str:
    """The per-session ledger file of ``session_id``. Ids come from a tracked file anyone can
    edit: one that is not a plain name becomes a hash, so it can never leave the folder."""
    if _SAFE_SESSION.fullmatch(session_id):
        return f"{LEDGER_DIR}/{session_id}.toml"
    from tg_git.git import sha1_hex

    digest = sha1_hex(session_id.encode("utf-8", "surrogatepass"))[:20]
    return f"{LEDGER_DIR}/x{digest}.toml"


DEFAULT_EXCLUDES = (
    "*.lock", "*.lockb", "package-lock.json", "pnpm-lock.yaml", "npm-shrinkwrap.json", "go.sum",
)  # fmt: skip
DEFAULT_MAX_TOKENS = 200_000
LANGUAGES = ("en", "ko")
BUDGET_SOURCES = ("auto", "estimate")  # auto: measured usage from agent logs when there is some


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

    def counts(self, path: str) -> bool:
        """Whether changes to ``path`` count as output tokens."""
        # Only tg-git's own files are free: anything else under .tg-git/ is work like any other.
        if path in ALWAYS_EXCLUDED or is_ledger_file(path):
            return False
        name = path.rsplit("/", 1)[-1]

        def matches(globs: tuple[str, ...]) -> bool:
            return any(fnmatch.fnmatchcase(path, g) or fnmatch.fnmatchcase(name, g) for g in globs)

        if self.include and not matches(self.include):
            return False
        return not matches(self.exclude)


def _parse(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib

        parsed: dict[str, Any] = tomllib.loads(text)
        return parsed
    import tomlkit  # Python 3.10 has no tomllib

    data: dict[str, Any] = tomlkit.parse(text).unwrap()
    return data


def parse_toml(text: str, what: str, fix: str | Said, language: str = "en") -> dict[str, Any]:
    """Parse TOML text, or raise one clear ``CorruptFile`` line naming ``what`` and ``fix``
    (a ``Said`` fix: a keyed error, said later in the reader's language)."""
    try:
        return _parse(text)
    except Exception as exc:  # tomllib and tomlkit raise different types
        from tg_git import messages

        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        at = re.search(r"line (\d+), column (\d+)", reason)
        if isinstance(fix, Said):
            where = {"line": at[1], "column": at[2]} if at else {}
            why = Said("toml_reason_at" if at else "toml_reason", reason=reason, **where)
            raise CorruptFile.said("toml_invalid", what=what, reason=why, fix=fix) from None
        if at and language != "en":  # the parser's words are English; where it stopped is not
            reason = messages.text(language, "toml_where", line=at[1], column=at[2])
        said = messages.text(language, "toml_invalid", what=what, reason=reason, fix=fix)
        raise CorruptFile(said) from None


def _language(data: dict[str, Any]) -> str:
    """The config's language when it is a valid one, else English: an error about another
    value is said in the language the user chose."""
    language = data.get("language")
    return language if isinstance(language, str) and language in LANGUAGES else "en"


def from_mapping(data: dict[str, Any], where: str = CONFIG_PATH) -> Config:
    from tg_git import messages

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
    )
    if cfg.budget_source not in BUDGET_SOURCES:
        raise bad("config_bad_source", value=cfg.budget_source)
    if cfg.max_tokens <= 0:
        raise bad("config_not_positive")
    from tg_git.ledger import MAX_COUNT

    if cfg.max_tokens > MAX_COUNT:  # a session started with it could not be read back
        raise bad("config_too_large", most=f"{MAX_COUNT:.0e}")
    if not 0 < cfg.warning <= cfg.force_save <= cfg.halt <= 100:
        raise bad("config_thresholds_rise")
    if cfg.language not in LANGUAGES:
        raise bad("config_bad_language", value=cfg.language)
    from tg_git.estimate import PROFILE_NAMES

    if cfg.profile not in PROFILE_NAMES:
        raise bad("config_bad_profile", value=cfg.profile, names=", ".join(PROFILE_NAMES))
    return cfg


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
    }


def load(root: Path) -> Config:
    """The config of the work tree at ``root`` (defaults when there is none)."""
    path = root / CONFIG_PATH
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        why = os_reason(exc) if isinstance(exc, OSError) else Said("config_not_utf8")
        raise CorruptFile.said("config_unreadable", path=CONFIG_PATH, error=why) from None
    # The fix is said only if the TOML is broken (the hooks read the config on every commit).
    fix = Said("config_toml_fix", path=CONFIG_PATH)
    return from_mapping(parse_toml(text, CONFIG_PATH, fix))


def language_of(root: Path) -> str:
    """The language of the config at ``root``, even when another of its values is bad (or
    "en" when there is none): commands that report on a broken set-up still speak it."""
    try:
        return _language_in((root / CONFIG_PATH).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):  # no config, unreadable: nothing says Korean
        return "en"


def _language_in(text: str) -> str:
    """The language a config text names, from its `language = "..."` line when the text is
    not valid TOML as a whole."""
    try:
        return _language(_parse(text))
    except Exception:  # tomllib and tomlkit raise different types
        found = re.search(r'^\s*language\s*=\s*"(\w+)"', text, re.M)
        return _language({"language": found[1]} if found else {})


def default_text(max_tokens: int, language: str, project_name: str) -> str:
    """A commented config for ``tg-git init``, built with tomlkit."""
    import tomlkit

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
