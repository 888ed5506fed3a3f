"""One error type with an exit code; each message is one sentence that names the fix."""

from __future__ import annotations

from enum import IntEnum

TYPE_CHECKING = False  # `import typing` costs a few ms that `tg-git --version` need not pay
if TYPE_CHECKING:
    from typing import TypeVar

    _E = TypeVar("_E", bound="TgGitError")


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
    key = ""  # a key of ``messages``, for an error raised where no language is known
    values: dict[str, object] = {}  # noqa: RUF012 (read only)

    def __init__(self, message: str, code: ExitCode | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @classmethod
    def said(cls: type[_E], key: str, /, **values: object) -> _E:
        """The error of ``messages`` key ``key`` (English until ``text`` is asked for another
        language): modules that know no language still reach a Korean reader in Korean."""
        from tg_git.text import messages

        error = cls(messages.text("en", key, **values))
        error.key, error.values = key, values
        return error

    def text(self, language: str) -> str:
        """The message in ``language``."""
        if not self.key:
            return str(self)
        from tg_git.text import messages

        return messages.text(language, self.key, **self.values)


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

    from tg_git.text import messages

    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return messages.text(language, "os_fix.space")
    if exc.errno == errno.EROFS:
        return messages.text(language, "os_fix.read_only")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return messages.text(language, "os_fix.permissions")
    return messages.text(language, "os_fix.path")
