"""A repository with tg-git in it: its config, its ledger files, and the writes commands make.

Events live in one file per session, ``.tg-git/ledger/<session>.toml`` (tg-git 0.1's single
``.tg-git/ledger.toml`` is still read, and split by the first write); a commit rewrites only its
own session's file, so its cost does not grow with history. Which session is current is local
state (``.git/tg-git/session``, per worktree); a clone without it takes the newest session.

Commands that add events hold the lock, write the journal first, then the session's waiting
events under the git dir (``layout.held_file``, per work tree), and stage nothing: the next
commit's hook folds them into the session's own file. So between commits the work tree and
the index are the user's alone (`git merge`, `pull --rebase`, `checkout`, `stash`, `rebase`
behave as without tg-git). An older tg-git's staged pending file is still read and folded.
"""

from __future__ import annotations

import os
import sys

from tg_git import __version__
from tg_git.domain import eventlog, layout, replay
from tg_git.domain.config import Config
from tg_git.domain.errors import NotReady, TgGitError, os_fix, os_reason
from tg_git.domain.layout import LEDGER_DIR, LEDGER_PATH
from tg_git.repo import configfile, git, journal, ledger, memo, pointer, written
from tg_git.repo.reflogs import previous_head, recent_tips

TYPE_CHECKING = False  # `import typing` costs every commit a few ms (bench/hook.py)
if TYPE_CHECKING:  # the hooks' paths are strings: ``pathlib`` costs a commit ~5 ms
    from pathlib import Path
    from typing import Any

    from tg_git.domain.eventkinds import Plan
    from tg_git.repo import settled

OWN, PENDING, SEGMENTS = 1, 4, 5  # the work tree's files among ``Workspace._sources``
_WARNED: set[str] = set()  # ledger files whose broken lines this process reported
BOM = b"\xef\xbb\xbf"
SAVING = "tg-git/saving.json"  # per worktree: the checkpoint save under way (pid, commit, blobs)


class Workspace:
    """A repository and its tg-git config (a plain class: the hooks import no dataclasses)."""

    def __init__(self, repo: git.Repo, config: Config) -> None:
        self.repo = repo
        self.config = config
        self._current: str | None = None
        # What the last fingerprint was made from: (fingerprint, refs, source bytes, parts)
        self._seen: tuple[str, str, tuple[bytes | None, ...], list[memo.Part]] | None = None
        self._fast: tuple[str, Any] | None = None  # ``_view``'s base, for the refs it was read at

    def __repr__(self) -> str:
        return f"Workspace({self.repo.top})"

    @classmethod
    def open(
        cls, start: str | os.PathLike[str] | None = None, require_init: bool = True
    ) -> Workspace:
        repo = git.find_repo(start)
        ws = cls(repo, configfile.load(repo.top, repo.git_file(configfile.MEMO)))
        if require_init and not ws.initialised:
            raise NotReady.from_key("not_set_up")
        return ws

    @property
    def initialised(self) -> bool:
        at, isfile = self.at, os.path.isfile
        return (
            isfile(at(layout.CONFIG_PATH))
            or isfile(at(LEDGER_PATH))
            or os.path.isdir(at(LEDGER_DIR))
        )

    # ---- files --------------------------------------------------------------------------
    def at(self, rel: str) -> str:  # a string: the hooks import no ``pathlib`` (~5 ms)
        return os.path.join(self.repo.top, rel)

    def file_text(self, rel: str) -> str | None:
        return ledger.read_text(self.at(rel), rel)

    def ledger_files(self) -> list[str]:
        """Every ledger file in the work tree, oldest session first (names start with the
        session's start time), the 0.1 single file first of all."""
        files = [LEDGER_PATH] if os.path.isfile(self.at(LEDGER_PATH)) else []
        try:
            names = sorted(
                n for n in os.listdir(self.at(LEDGER_DIR)) if n.endswith(".toml") and n != ".toml"
            )
        except OSError:
            names = []
        return files + [
            f"{LEDGER_DIR}/{n}" for n in names if layout.is_ledger_file(f"{LEDGER_DIR}/{n}")
        ]

    def all_ledger_files(self) -> list[str]:
        """``ledger_files`` with each session's later segments after its file."""
        return [
            path
            for rel in self.ledger_files()
            for path in ([rel] if rel == LEDGER_PATH else ledger.segment_paths(self.repo.top, rel))
        ]

    def session_text(self, rel: str) -> str | None:
        """A session's events in the work tree: its file and its later segments, joined
        (None when it has none of them)."""
        files = ledger.segment_paths(self.repo.top, rel)
        parts = [ledger.read_bytes(self.at(p), p) for p in files]
        return eventlog.decode(ledger.join(parts), rel)

    def _pointer(self) -> str | None:
        return pointer.read(self.repo)

    def set_current(self, session_id: str) -> None:
        pointer.write(self.repo, session_id)
        self._current = session_id

    def current_session_id(self) -> str | None:
        """This work tree's session: the one it started or resumed, else the newest."""
        if self._current:
            return self._current
        pointed = self._pointer()
        rel = layout.ledger_file(pointed) if pointed else ""
        if pointed and (os.path.isfile(self.at(rel)) or journal.known_anywhere(self.repo, rel)):
            self._current = pointed
            return pointed
        files = self.ledger_files()
        # Session ids start with their UTC start time, so the last well-formed name is the
        # newest session: a file named otherwise (or whose start names another id) is never
        # taken for the current session, whatever dates it claims.
        # (each of ``files`` ends in ``.toml``: its name without it is its session's id)
        named = [f for f in files if eventlog.is_session_id(os.path.basename(f)[:-5])]
        for rel in reversed(named):
            lines, _ = eventlog.clean_lines(self.file_text(rel))
            starts = [
                e for e in eventlog.parse("\n".join(lines)).values() if e.get("kind") == "session"
            ]
            if any(e.get("id") == os.path.basename(rel)[:-5] for e in starts):
                self._current = os.path.basename(rel)[:-5]
                return self._current
        if LEDGER_PATH in files:  # a 0.1 repository: the newest start in its single file
            old = eventlog.parse("\n".join(eventlog.clean_lines(self.file_text(LEDGER_PATH))[0]))
            begun = sorted(
                (str(e.get("at", "")), str(e.get("id", "")))
                for e in old.values()
                if e.get("kind") == "session"
            )
            self._current = begun[-1][1] if begun else None
        return self._current

    def current_ledger_file(self) -> str | None:
        session_id = self.current_session_id()
        return layout.ledger_file(session_id) if session_id else None

    # ---- reading ------------------------------------------------------------------------
    def landed_texts(self, rel: str) -> list[str]:
        """``rel`` (with its later segments) as committed in HEAD, ORIG_HEAD and HEAD's previous
        position: events there have landed, whatever a reset, revert or rebase did since."""
        orig = git.read_objects(self.repo, ["ORIG_HEAD"])[0]
        revs = ["HEAD", previous_head(self.repo) or "HEAD"]
        if orig and orig[0] in recent_tips(self.repo):  # not another branch's reset
            revs.append(orig[0])
        revs = list(dict.fromkeys(revs))
        from tg_git.repo import gitquery  # lazy: 0.6 ms (a usual commit queries none of it)

        found = gitquery.files_at(self.repo, revs, [rel, rel.removesuffix(".toml")], depth=2)
        texts: dict[bytes, None] = {}  # often one version three times
        for held in found:
            paths = ledger.segment_paths_of(rel, held)
            data = ledger.join([held[p].data if p in held else None for p in paths])
            if data is not None:
                texts[data] = None
        return [data.decode("utf-8", "replace") for data in texts]

    def session_events(self) -> dict[str, eventlog.Event]:
        """The current session's events: committed, journaled, and recorded in the work tree,
        without commit events of attempts that never landed. Landed events the journal lacks
        are journaled on the way (a reset or rebase may take them out of HEAD next)."""
        return self._read_session()[0]

    def recorded_text(self, rel: str) -> str:
        """A session's files in the work tree (its segments too) and its waiting events,
        joined: every event this work tree holds for it."""
        pending = eventlog.decode(ledger.waiting_bytes(self.repo, rel), layout.pending_file(rel))
        return "\n".join(t for t in (self.session_text(rel), pending) if t)

    def _sources(
        self, rel: str, fast: settled.Fast | None = None
    ) -> tuple[bytes, bytes | None, bytes, bytes | None, bytes | None, bytes | None]:
        """The bytes of what a session is read from besides the landed texts: this line of
        work's journal, the work tree's file, the other lines of work's journals, the 0.1
        single file, the work tree's pending file (``OWN``, ``PENDING``: the two written),
        and the work tree's later segments of the session, joined. With ``fast`` (a long
        session whose settled files are replayed already): the journal since its base, the
        base's key and lines from other lines of work, and the session's last file alone."""
        at = self.at
        later = [fast.last] if fast is not None else ledger.segment_paths(self.repo.top, rel)[1:]
        return (
            fast.journal.encode("utf-8") if fast else journal.read_bytes(self.repo, rel),
            ledger.read_bytes(at(rel), rel),
            f"{fast.base.key}|{fast.away}".encode()
            if fast
            else journal.read_elsewhere_bytes(self.repo, rel),
            ledger.read_bytes(at(LEDGER_PATH)),
            ledger.waiting_bytes(self.repo, rel),
            ledger.join([ledger.read_bytes(at(p), p) for p in later]) if later else None,
        )

    def _view(
        self, rel: str
    ) -> tuple[settled.Fast, dict[str, git.Object | None], list[str]] | None:
        """The fast view of a long session (``settled.view``), its journal read now; kept for
        this process while the refs stay (an agent turn reads, then appends)."""
        files = ledger.segment_paths(self.repo.top, rel)
        if len(files) < 2 or os.path.isfile(self.at(LEDGER_PATH)):
            return None
        from tg_git.repo import settled  # lazy: 0.4 ms (a session of one file has none)

        key, measured = f"{rel}|{memo.refs(self.repo)}", self.config.budget_source != "estimate"
        if self._fast is None or self._fast[0] != key:
            self._fast = (key, settled.view(self.repo, rel, files, measured))
        fast, found, landed = self._fast[1]
        if not isinstance(fast, settled.Fast):
            again = fast == settled.STALE
            if settled.settle(self.repo, rel, files, found, measured, self.file_text, again):
                self._fast = None  # kept: the next read takes the fast view
            return None
        if fast.last != files[-1]:
            return None
        tail = journal.read_after(self.repo, rel, fast.base.journal)
        if tail is None:
            return None
        known = "".join(f"{ln}\n" for ln in fast.base.journaled) + tail
        return fast._replace(journal=known), found, landed

    def _read_fast(
        self, rel: str, view: tuple[settled.Fast, dict[str, git.Object | None], list[str]]
    ) -> memo.State | None:
        """``settled.read`` of the session, with this work tree's sources and memo key."""
        from tg_git.repo import settled  # lazy: 0.4 ms (a session of one file has none)

        sources = self._sources(rel, view[0])
        refs = memo.refs(self.repo)
        return settled.read(
            self.repo, rel, view, sources, lambda: self._fingerprint(rel, refs, sources)
        )

    def _fingerprint(
        self,
        rel: str,
        refs: str,
        sources: tuple[bytes | None, ...],
        parts: list[memo.Part] | None = None,
    ) -> str:
        """The memo key of ``sources`` (``parts``: their lengths and CRCs, when known)."""

        parts = [memo.part(s) for s in sources] if parts is None else parts
        fingerprint = f"{memo.FORMAT}|{__version__}|{rel}|{refs}|{memo.joined(parts)}"
        self._seen = (fingerprint, refs, sources, parts)
        return fingerprint

    def _read_session(self) -> tuple[dict[str, eventlog.Event], str]:
        """``session_events`` and the fingerprint of what they were read from ("" when the
        read changed a source itself, or found broken lines: no memo of that)."""
        rel = self.current_ledger_file()
        session_id = self.current_session_id()
        if rel is None or session_id is None:
            return {}, ""
        refs = memo.refs(self.repo)
        landed = self.landed_texts(rel)
        sources = self._sources(rel)
        known, away = sources[0].decode("utf-8", "replace"), sources[2].decode("utf-8", "replace")
        worktree = eventlog.decode(ledger.join([sources[OWN], sources[SEGMENTS]]), rel)
        old = eventlog.decode(sources[3])
        pending = eventlog.decode(sources[PENDING], layout.pending_file(rel))
        committed = eventlog.union(known, *landed, away)
        added = journal.record(self.repo, rel, eventlog.union(*landed), known)
        texts = [known, *landed, worktree, pending, away]
        if old:  # the 0.1 single ledger, until the first write splits it
            texts.append(
                "\n".join(ln for ln in eventlog.event_lines(old) if f'"{session_id}"' in ln)
            )
        # Every distinct line once, parsed once; line by line only when something is broken.
        _lines, events, dropped = eventlog.clean_events("\n".join(eventlog.union(*texts)))
        if dropped and rel not in _WARNED:  # read on without them; the next commit repairs it
            _WARNED.add(rel)
            print(self._text("ws_dropped", path=rel, n=dropped), file=sys.stderr)
        landed_keys = {eventlog.key_of(ln) for ln in committed}
        found = {
            k: e
            for k, e in events.items()
            if (e.get("kind") != "commit" or k in landed_keys or old)
            and (e.get("session") == session_id or e.get("id") == session_id)
        }
        unsure = bool(added or dropped)
        return found, "" if unsure else self._fingerprint(rel, refs, sources)

    def session_state(self) -> memo.State:
        """The current session replayed, from the memo when nothing changed since tg-git last
        read or wrote it (an agent turn), else from every source (and memoised)."""
        rel = self.current_ledger_file()
        measured = self.config.budget_source != "estimate"
        if rel is None:
            return memo.State(None, frozenset(), "", "")
        view = self._view(rel)
        sources = self._sources(rel, view[0] if view else None)
        fingerprint = self._fingerprint(rel, memo.refs(self.repo), sources)
        state = memo.load(self.repo, fingerprint)
        if state is None:
            state = self._read_fast(rel, view) if view else None
            if state is None:
                events, fingerprint = self._read_session()
                state = memo.state_of(events, fingerprint, measured)
            memo.store(self.repo, state)
        if state.session is not None:
            state.session.use_measured = measured
        return state

    def events(self) -> dict[str, eventlog.Event]:
        """Every event this clone knows: all ledger files of the work tree and the journal
        (each file parsed on its own: at 100,000 events a union of their lines cost ~120 ms
        and its parse ~460, the files' parses ~300; a settled file's parse is kept,
        ``repo.parsed``, so a report parses only each session's last file)."""
        from tg_git.repo import (
            parsed,  # lazy: 0.3 ms; the report's alone: kept off the hooks' imports
        )

        texts: list[str | None] = []
        known: list[dict[str, object] | None] = []
        for rel in self.ledger_files():
            files = [rel] if rel == LEDGER_PATH else ledger.segment_paths(self.repo.top, rel)
            texts_of, known_of = parsed.read_session(self.repo, rel, files)
            texts += texts_of
            known += known_of
        texts += [journal.read(self.repo, name) for name in journal.names(self.repo)]
        return eventlog.parse_union(texts, parsed=known)

    def session(self) -> replay.Session | None:
        return self.session_state().session

    def outputs(self) -> list[tuple[str, int, int]]:
        """The current session's commits, first file, file count and tokens, in order, read from every event
        (``session_state`` of a long session keeps only the totals of its settled files)."""
        measured = self.config.budget_source != "estimate"
        session = replay.replay(self._read_session()[0], use_measured=measured)
        return session.outputs if session is not None else []

    def require_session(self) -> replay.Session:
        session = self.session()
        if session is None:
            raise NotReady(self._text("ws_no_session"))
        return session

    def _text(self, key: str, **values: object) -> str:
        """A message of ``messages`` in this work tree's language."""
        from tg_git.text import messages  # lazy: 0.4 ms

        return messages.text(self.config.language, key, **values)

    # ---- writing ------------------------------------------------------------------------
    def mark_written(self, rel: str, text: str, digest: str = "") -> bool:
        """``written.mark``: tg-git's own write of ``rel``, so it is never taken for a user's."""
        return written.mark(self.repo, rel, text, digest)

    def is_ours(self, rel: str, text: bytes | str | None) -> bool:
        return written.is_ours(self.repo, rel, text)

    def check_ledger_staged(
        self, rel: str | None = None, text: str | None = None, raw: bytes | None = None
    ) -> None:
        """Refuse to write over a user's unstaged edit of a ledger file (``text`` and ``raw``:
        its text and bytes, when the caller read them)."""
        rel = rel or self.current_ledger_file()
        if rel is None:
            return
        text = self.file_text(rel) if text is None else text
        if text is None or self.is_ours(rel, raw if raw is not None else text):
            return
        from tg_git.repo import gitquery  # lazy: 0.6 ms (a usual commit queries none of it)

        staged = gitquery.blob(self.repo, f":{rel}")
        if staged is not None and eventlog.normalise(staged.decode("utf-8", "replace")) != text:
            raise TgGitError(ledger.unstaged_message(rel, self.config.language))

    def _target(self, rel: str) -> str:
        """``rel`` in the work tree, when no folder on the way is a symbolic link."""
        if (link := ledger.first_link(self.repo.top, os.path.dirname(rel))) is not None:
            raise TgGitError.from_key("ledger_symlink", folder=link)
        return self.at(rel)

    def write_file(self, rel: str, text: str, durable: bool = True) -> str:
        ledger.write_atomic(self._target(rel), text, durable)
        self.mark_written(rel, text)
        return text

    def _add_lines(
        self, rel: str, current: str | None, raw: bytes | None, new: list[str]
    ) -> memo.Part:
        """Write ``new`` lines after ``current`` (the file's text; ``raw`` its bytes as read
        under the lock): appended in place when the file is plain LF text ending in a line
        end (a 10,000-event file is not rewritten on every agent turn), else rewritten.
        Returns the length and CRC of what the file now holds."""
        tail = "".join(f"{ln}\n" for ln in new)
        path = self._target(rel)
        plain = raw and raw.endswith(b"\n") and b"\r" not in raw and not raw.startswith(BOM)
        # A link is replaced, not followed.
        if not (current and raw and plain) or os.path.islink(path):
            return memo.part(self.write_file(rel, eventlog.appended(current, [tail])))
        before = memo.part(raw)  # ``raw`` is ``current``, encoded
        after = memo.extended(before, tail.encode("utf-8"))
        # Noted first, with what was there before: a crash mid-append (a torn last line) is
        # then still tg-git's own state, not a user's edit that blocks every later write.
        noted = f"{memo.joined([after])}|{memo.joined([before])}"
        if not self.mark_written(rel, current + tail, noted):
            # Unnoted, the append would read as a user's edit and block the next commit.
            raise TgGitError.from_key(
                "write_unnoted", folder=os.path.dirname(self.repo.git_file(written.WRITTEN))
            )
        if tail:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
            try:
                data = memoryview(tail.encode("utf-8"))
                while data:  # a crash mid-line leaves a torn line: read past, repaired
                    data = data[os.write(fd, data) :]
                os.fsync(fd)
            except OSError:
                os.ftruncate(fd, len(raw))  # a full disk: never half a line left behind
                raise
            finally:
                os.close(fd)
        return after

    def migrate(self) -> list[str]:
        """Split the 0.1 single ledger into per-session files (every event kept, each in its
        session's file); returns the paths to stage. Call with the lock held."""
        old_text = self.file_text(LEDGER_PATH)
        if old_text is None:
            return []
        lines, _dropped = eventlog.salvage(old_text)
        by_file: dict[str, list[str]] = {}
        for line in lines:
            event = next(iter(eventlog.parse(line).values()))
            owner = str(
                event.get("id") if event.get("kind") == "session" else event.get("session", "")
            )
            by_file.setdefault(layout.ledger_file(owner), []).append(line)
        for rel, new in by_file.items():
            journal.record(self.repo, rel, new)
            self.write_file(
                rel,
                eventlog.rewrite(
                    self.file_text(rel), eventlog.union(self.file_text(rel), "\n".join(new))
                ),
            )
        os.unlink(self.at(LEDGER_PATH))
        return [LEDGER_PATH, *by_file, *self.union_attributes()]

    def union_attributes(self) -> list[str]:
        """``ledger.union_attributes`` of this work tree."""
        return ledger.union_attributes(self.repo, self.config.language)

    def append(
        self, *lines: str, rel: str | None = None, expect: str = "", own: bool = False
    ) -> str:
        """Add event lines to a session (the current one by default): journal, pending file
        (``own``: the session's own file, for its start), index, under the lock. With
        ``expect``, the fingerprint of the sources a caller replayed: returns their
        fingerprint after this write when nothing else changed them since (the caller's
        state plus these lines is then the whole truth), else ""."""
        eventlog.parse("".join(lines))  # never write a line that would not read back
        with journal.locked(self.repo):
            rel = rel or self.current_ledger_file()
            if rel is None:
                raise NotReady(self._text("ws_no_session"))
            refs = memo.refs(self.repo) if expect else ""
            view = self._view(rel) if not own else None
            sources = self._sources(rel, view[0] if view else None)
            which, target = (OWN, rel) if own else (PENDING, layout.held_file(rel))
            held = None if own else ledger.held_bytes(self.repo, rel)
            current = eventlog.decode(sources[which] if own else held, target)
            if own:
                self.check_ledger_staged(target, current, sources[which])
            seen = self._seen
            if expect and seen and seen[:3] == (expect, refs, sources):
                unchanged, parts = True, list(seen[3])  # the same bytes the caller read
            else:
                unchanged = bool(expect) and expect == self._fingerprint(rel, refs, sources)
                parts = list(self._seen[3]) if self._seen else []
            known = sources[0].decode("utf-8", "replace")
            added = journal.record(self.repo, rel, [ln.rstrip("\n") for ln in lines], known)
            # Journaled is recorded: the next commit writes what this could not (so a retry
            # after a failure here would count the event twice).
            try:
                paths = self.migrate()
                raw = sources[which] if own else held
                if paths and own:  # the split may have written this file too
                    raw = ledger.read_bytes(self.at(rel), rel)
                    current = eventlog.decode(raw, rel)
                new = journal.missing(eventlog.event_lines("".join(lines)), current or "")
                if own:
                    written = self._add_lines(target, current, raw, new)
                else:  # waiting under the git dir: nothing staged, nothing in the work tree
                    ledger.hold_lines(self.repo, rel, raw, new)
                    written = memo.part(ledger.waiting_bytes(self.repo, rel))
            except (TgGitError, OSError) as exc:
                journal.hold(self.repo, rel, lines)
                lang = self.config.language
                why = (
                    f"{os_reason(exc).text(lang)}; {os_fix(exc, lang)}"
                    if isinstance(exc, OSError)
                    else exc.text(lang)
                )
                why = why.rstrip(".")
                print(self._text("ws_held", path=target, why=why), file=sys.stderr)
                return ""
            try:
                if own or paths:
                    ledger.stage(self.repo, [target, *paths] if own else paths)
            except TgGitError as exc:
                error = exc.text(self.config.language)
                print(self._text("ws_not_staged", path=target, error=error), file=sys.stderr)
            if not unchanged or paths or memo.refs(self.repo) != refs:
                return ""
            # The sources now: what was read plus what this wrote (under the lock, no other
            # tg-git wrote; any other writer changes the text, so the key, so costs a read).
            parts[0] = memo.extended(parts[0], added.encode("utf-8"))
            parts[which] = written
            return self._fingerprint(rel, refs, (), parts)

    def add_event(self, kind: str, **fields: Any) -> str:
        """Append one event of the current session; returns its key."""
        session = self.require_session()
        key, line = eventlog.event_line(kind, session=session.id, **fields)
        self.append(line)
        return key

    def start_session(self, max_tokens: int | None = None, carry: Plan | None = None) -> str:
        """Start a new session; the plan of the previous one (or ``carry``) comes along."""
        from tg_git.domain import carry as carried  # lazy: 0.1 ms (no usual commit starts one)

        if carry is None:
            previous = self.session()
            carry = carried.plan_of(previous) if previous else {}
        ending = self.current_ledger_file()
        if ending:
            self._fold_pending(ending)
        session_id = "s" + eventlog.new_key()[1:]
        while True:  # the newest of what is carried, on a line every reader takes
            _, line = eventlog.event_line(
                "session",
                id=session_id,
                max_tokens=max_tokens or self.config.max_tokens,
                base=git.head(self.repo) or "",
                **carried.bounded_plan(carry),
            )
            sizes = {k: len(items) for k in carried.CARRIED_LISTS if (items := carry.get(k))}
            if len(line) <= carried.MAX_START_LINE or not sizes:
                break
            carry = carried.halved(carry, max(sizes, key=sizes.__getitem__))
        self.append(line, rel=layout.ledger_file(session_id))  # waits, as every record does
        self.set_current(session_id)
        return session_id

    def _fold_pending(self, rel: str) -> None:
        """Move the pending events of ``rel``'s session into its own file, staged: the commit
        hook folds only the current session's, so an ending session's pending file would
        otherwise reach a commit and stay there (and block checkout again)."""
        pending = layout.pending_file(rel)
        with journal.locked(self.repo):
            recorded = self.file_text(pending)
            if not recorded:
                return
            from tg_git.domain import segments  # lazy: 0.2 ms

            files = ledger.segment_paths(self.repo.top, rel)
            bases = [(path, self.file_text(path)) for path in files]
            for path, text in bases:
                self.check_ledger_staged(path, text)
            every = eventlog.union(*(text for _, text in bases), recorded)
            texts = segments.split(rel, bases, every)
            changed = [path for path, text in texts.items() if text != dict(bases).get(path)]
            for path in changed:
                self.write_file(path, texts[path])
            inside(self, pending).unlink()
            new = any(path not in dict(bases) for path in changed)  # a new segment
            ledger.stage(self.repo, [*changed, pending, *(self.union_attributes() if new else [])])


def inside(ws: Workspace, rel: str) -> Path:
    """The path of ``rel`` in the work tree, when neither it nor a folder on the way is a
    symbolic link: a cloned repository can track ``.tg-git`` as a link to any folder of the
    user's, and tg-git must write nothing outside the clone."""
    from pathlib import Path  # lazy: 5.1 ms

    from tg_git.text import messages  # lazy: 0.4 ms

    if (link := ledger.first_link(ws.repo.top, rel)) is not None:
        raise TgGitError(messages.text(ws.config.language, "write_through_link", path=link))
    return Path(ws.at(rel))
