from __future__ import annotations

from tg_git import config as config_mod
from tg_git import git
from tg_git.config import CONFIG_PATH, LEDGER_ATTRIBUTES
from tg_git.errors import TgGitError
from tg_git.workspace import Workspace


def init(*, max_tokens: int | None = None, language: str | None = None) -> int:
    """Write the config (never over a user's), the ledger, the .gitattributes line; start a session."""
    if max_tokens is not None and max_tokens <= 0:
        raise TgGitError("--max-tokens must be a positive number of tokens, such as 200000.")
    ws = Workspace.open(require_init=False)
    root = ws.repo.root
    config_file = root / CONFIG_PATH
    wrote = []
    if not config_file.exists():
        config_file.parent.mkdir(parents=True, exist_ok=True)
        config_file.write_text(
            config_mod.default_text(
                max_tokens or config_mod.DEFAULT_MAX_TOKENS, language or "en", root.name
            ),
            encoding="utf-8",
        )
        wrote.append(CONFIG_PATH)
    attributes = root / ".gitattributes"
    # A user's own unstaged edit of .gitattributes is theirs to stage, not ours.
    theirs_unstaged = not git.ok(["diff", "--quiet", "--", ".gitattributes"], root)
    existing = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    missing = [a for a in LEDGER_ATTRIBUTES if a not in existing.splitlines()]
    if missing:
        sep = "" if not existing or existing.endswith("\n") else "\n"
        attributes.write_text(f"{existing}{sep}{''.join(a + chr(10) for a in missing)}", encoding="utf-8")
        wrote.append(".gitattributes")
    ws = Workspace.open()  # re-read the config just written
    ws.repo.git("add", "--", CONFIG_PATH, *([] if theirs_unstaged else [".gitattributes"]))
    if theirs_unstaged:
        print("tg-git: .gitattributes has your unstaged edits, so it was left unstaged; "
              "review it and `git add .gitattributes`.")  # fmt: skip
    session = ws.session()
    if session is None or max_tokens is not None:
        session_id = ws.start_session(max_tokens)
        wrote.append(f"{ws.current_ledger_file()} (session {session_id})")
    for item in wrote:
        print(f"tg-git: wrote {item}")
    if not wrote:
        print("tg-git: already set up here; nothing changed.")
    print("tg-git: next, `tg-git install` adds the git hooks; commit .tg-git/ and .gitattributes.")
    return 0
