"""`tg-git init`: write the config (never over a user's), the ledger, the .gitattributes line;
start a session. On a set-up repository, --max-tokens and --language change the config."""

from __future__ import annotations

from tg_git.domain import config as config_mod
from tg_git.domain import levels
from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.domain.layout import CONFIG_PATH, LEDGER_ATTRIBUTES
from tg_git.repo import git, gitquery
from tg_git.repo.workspace import Workspace, inside
from tg_git.services.startup import open_workspace
from tg_git.text import messages


def _stage_start(ws: Workspace) -> None:
    """The set-up is staged: the session's start with it, in the session's own file."""
    from tg_git.services import waiting  # lazy: 0.3 ms

    rel = ws.current_ledger_file()
    if rel:
        gitquery.stage_paths(ws.repo, waiting.to_worktree(ws, rel))


def _has_unstaged(repo: git.Repo, path: str) -> bool:
    return not gitquery.is_clean(repo, [path])


def _attributes(ws: Workspace, lang: str) -> bool | None:
    """Add the ledger files' merge=union lines to .gitattributes, as bytes (any encoding, CRLF
    kept), never through a symbolic link. True when written, False when already there, None
    when left to the user (a link)."""
    path = ws.repo.root / ".gitattributes"
    if path.is_symlink():
        print(messages.text(lang, "attributes_symlink", line=LEDGER_ATTRIBUTES[-1]))
        return None
    if path.exists() and not path.is_file():
        raise TgGitError(messages.text(lang, "attributes_not_file"))
    existing = path.read_bytes() if path.exists() else b""
    have = {raw.rstrip(b"\r") for raw in existing.split(b"\n")}
    missing = [a.encode() for a in LEDGER_ATTRIBUTES if a.encode() not in have]
    if not missing:
        return False
    eol = b"\r\n" if b"\r\n" in existing else b"\n"
    sep = b"" if not existing or existing.endswith(b"\n") else eol
    with open(path, "ab") as fh:  # appending: the user's bytes stay as they are
        fh.write(sep + b"".join(line + eol for line in missing))
    return True


def init(
    *, max_tokens: int | None = None, language: str | None = None, new_session: bool = False
) -> int:
    """Set up, or change a set-up repository's config. The current session is kept (its budget
    was fixed when it started): only ``new_session`` starts another."""
    ws = open_workspace(require_init=False)
    root = ws.repo.root
    lang = language or ws.config.language
    if max_tokens is not None:
        problem = levels.check_budget(max_tokens, ws.config, lang)
        if problem:
            raise TgGitError(problem, ExitCode.USAGE)
    config_file = inside(ws, CONFIG_PATH)  # never through a link the clone tracks
    wrote: list[str] = []
    stage: list[str] = []
    if not config_file.exists():
        config_file.parent.mkdir(parents=True, exist_ok=True)
        config_file.write_text(
            config_mod.default_text(max_tokens or config_mod.DEFAULT_MAX_TOKENS, lang, root.name),
            encoding="utf-8",
        )
        wrote.append(CONFIG_PATH)
        stage.append(CONFIG_PATH)
    else:
        from tg_git.services.configure import set_value  # lazy: 3.2 ms

        theirs = _has_unstaged(ws.repo, CONFIG_PATH)
        changes = {"max_tokens": max_tokens, "language": language}
        for key, value in changes.items():
            if value is not None and getattr(ws.config, key) != value:
                set_value(ws, key, value)
                ws = open_workspace(require_init=False)
                print(messages.text(lang, "init_updated", key=key, value=value, path=CONFIG_PATH))
                wrote.append(CONFIG_PATH)
        if wrote and not theirs:
            stage.append(CONFIG_PATH)
        elif wrote:
            print(messages.text(lang, "left_unstaged", path=CONFIG_PATH))
    # A user's own unstaged edit of .gitattributes is theirs to stage, not ours.
    theirs_attributes = _has_unstaged(ws.repo, ".gitattributes")
    if _attributes(ws, lang):
        wrote.append(".gitattributes")
        if theirs_attributes:
            print(messages.text(lang, "left_unstaged", path=".gitattributes"))
        else:
            stage.append(".gitattributes")
    ws = open_workspace()  # re-read the config just written
    if stage:
        gitquery.stage_paths(ws.repo, list(dict.fromkeys(stage)))
    session = ws.session()
    if session is None or new_session:
        session_id = ws.start_session(max_tokens)
        _stage_start(ws)
        wrote.append(
            messages.text(lang, "session_item", path=ws.current_ledger_file(), id=session_id)
        )
    elif max_tokens is not None and max_tokens != session.max_tokens:
        print(messages.text(lang, "init_keeps_session", id=session.id, max=session.max_tokens))
    for item in dict.fromkeys(wrote):
        print(messages.text(lang, "wrote", item=item))
    if not wrote:
        print(messages.text(lang, "set_up_already"))
    print(messages.text(lang, "init_next"))
    return 0
