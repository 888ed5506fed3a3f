"""One error type with an exit code; each message is one sentence that names the fix."""

from __future__ import annotations

TYPE_CHECKING = False  # `import typing` costs a few ms that `tg-git --version` need not pay
if TYPE_CHECKING:
    from enum import IntEnum
    from typing import TypeVar

    _E = TypeVar("_E", bound="TgGitError")
else:  # at run time the codes are the plain ints a process exits with: building an enum
    IntEnum = object  # class cost every command (every commit) ~1.4M instructions


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
    def from_key(cls: type[_E], key: str, /, **values: object) -> _E:
        """The error of ``messages`` key ``key`` (English until ``text`` is asked for another
        language): modules that know no language still reach a Korean reader in Korean. A
        value that is a ``Message`` (an OS error's reason, its fix) is said in that language too."""
        error = cls(Message(key, **values).text("en"))
        error.key, error.values = key, values
        return error

    def text(self, language: str) -> str:
        """The message in ``language``."""
        if not self.key:
            return str(self)
        return Message(self.key, **self.values).text(language)


class Message:
    """A message key and its values, said once the reader's language is known."""

    def __init__(self, key: str, /, **values: object) -> None:
        self.key, self.values = key, values

    def text(self, language: str) -> str:
        from tg_git.text import messages  # lazy: 0.3 ms

        values = {
            name: value.text(language) if isinstance(value, Message) else value
            for name, value in self.values.items()
        }
        return messages.text(language, self.key, **values)

    def __str__(self) -> str:
        return self.text("en")


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
    return os_fix_said(exc).text(language)


def os_fix_said(exc: OSError) -> Message:
    """``os_fix`` for a keyed error, said in the reader's language."""
    import errno  # lazy: 0.2 ms

    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return Message("os_fix.space")
    if exc.errno == errno.EROFS:
        return Message("os_fix.read_only")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return Message("os_fix.permissions")
    return Message("os_fix.path")


def os_reason(exc: OSError) -> Message:
    """Why the system refused (its own sentence is English whatever the locale): the usual
    causes in words of the reader's language, any other by its ``errno`` name (``ELOOP``)."""
    import errno  # lazy: 0.2 ms

    name = errno.errorcode.get(exc.errno or 0, "")
    if name in OS_REASONS:
        return Message(f"os_reason.{name}")
    return Message("os_reason.other", error=exc.strerror or exc, name=name or type(exc).__name__)


# The causes ``os_reason`` names in words (messages ``os_reason.NAME``).
OS_REASONS = frozenset(
    (
        "ENOENT",
        "ENOTDIR",
        "EISDIR",
        "EEXIST",
        "EACCES",
        "EPERM",
        "ENOSPC",
        "EDQUOT",
        "EROFS",
        "EIO",
        "ELOOP",
        "ENAMETOOLONG",
        "EBUSY",
        "ETXTBSY",
        "EMFILE",
        "ENFILE",
    )
)
