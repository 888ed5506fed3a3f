"""One error type with an exit code; each message is one sentence that names the fix."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    ERROR = 1  # bad input, unreadable file, corrupt ledger or config
    USAGE = 2  # wrong arguments
    NOT_READY = 3  # not a git repository, or tg-git not initialised here
    BAD_CHECKPOINT = 4  # checkpoint invalid, oversized or hostile
    NO_CHECKPOINT = 5  # nothing to resume from
    DRIFT = 6  # verify: the ledger disagrees with history
    HALT = 7  # the session's budget is spent: commit refused on purpose
    CRASH = 70  # a bug in tg-git
    INTERRUPTED = 130


class TgGitError(Exception):
    """An error a user can fix; ``str()`` is the one line printed on stderr."""

    code = ExitCode.ERROR

    def __init__(self, message: str, code: ExitCode | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class NotReady(TgGitError):
    code = ExitCode.NOT_READY


class GitError(TgGitError):
    """git itself failed."""


class CorruptFile(TgGitError):
    """The ledger or the config cannot be read."""


class BadCheckpoint(TgGitError):
    code = ExitCode.BAD_CHECKPOINT


class NoCheckpoint(TgGitError):
    code = ExitCode.NO_CHECKPOINT


def os_fix(exc: OSError, language: str = "en") -> str:
    """What to do about a failed read or write, by its cause: a full disk is not fixed by
    permissions, nor a read-only file system by freeing space."""
    import errno

    from tg_git import messages

    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return messages.text(language, "os_fix.space")
    if exc.errno == errno.EROFS:
        return messages.text(language, "os_fix.read_only")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return messages.text(language, "os_fix.permissions")
    return messages.text(language, "os_fix.path")
