"""Count a commit that passed uncounted, after the fact, so that it never jams a push.

A commit passes uncounted when its pre-commit hook failed (a broken config, a full disk, a
bug: a tool error never blocks a commit) or ran not at all (``--no-verify``). verify, and so
pre-push, then refuse every push that carries it. This module writes the one event that
clears it: a commit event that names the commit (``recount``) and carries the tokens its
change estimates beyond what it claimed. verify skips a commit a recount event names, and
never counts a recount event as the claim of the commit that carries it.

Three ways in, each recorded in the ledger: the hook that failed leaves a note and the next
commit of this clone counts the commit it missed (``remember`` / ``catch_up``); `tg-git
repair` counts every commit verify finds short (``repair.short_commits``); `tg-git verify --accept
COMMIT` accepts a commit by hand, whatever verify said of it (``accept``), in a commit of its
own so that the push that follows carries it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from tg_git.domain import eventlog
from tg_git.domain.errors import ExitCode, TgGitError
from tg_git.domain.layout import LEDGER_DIR, LEDGER_PATH, ledger_file, pending_file
from tg_git.repo import git, gitquery, journal, regular
from tg_git.repo.workspace import Workspace

PENDING = "tg-git/uncounted"  # under the git dir: commits whose hook failed, one id a line
FIELD = "recount"


def remember(git_dir: Path, sha: str) -> None:
    """Note a commit whose pre-commit hook failed (post-commit knows its id)."""
    path = git_dir / PENDING
    path.parent.mkdir(parents=True, exist_ok=True)
    regular.append_text(str(path), sha + "\n")  # a FIFO there: OSError, never a wait


def pending(repo: git.Repo) -> list[str]:
    try:
        text = regular.read_bytes(repo.git_file(PENDING)).decode("ascii", errors="replace")
    except OSError:
        return []
    return list(dict.fromkeys(ln.strip() for ln in text.splitlines() if ln.strip()))


def catch_up(ws: Workspace, session_id: str) -> list[tuple[str, int]]:
    """The next commit's hook: event lines for the noted commits go to the journal (the
    commit being made carries them), and the note is cleared. Commits HEAD no longer reaches
    (amended, reset away) or counted already are skipped."""

    repo = ws.repo
    noted = [s for s in pending(repo) if _reaches(repo, s)]
    done = recounted(ws.recorded_text(ledger_file(session_id)))
    lines, counted = events_for(ws, [s for s in noted if s not in done], session_id)
    if lines:
        journal.record(repo, ledger_file(session_id), lines)
    repo.git_path(PENDING).unlink(missing_ok=True)
    return counted


def _reaches(repo: git.Repo, sha: str) -> bool:
    return gitquery.is_ancestor(repo, sha)


def recounted(text: str) -> set[str]:
    """The commits a ledger text's recount events name (one cheap scan; few lines parse, and
    one that does not read names nothing)."""
    lines = [ln for ln in eventlog.event_lines(text) if f'"{FIELD}"' in ln]
    events = eventlog.clean_events("\n".join(lines))[1].values() if lines else []
    return {str(e.get(FIELD, "")) for e in events if e.get("kind") == "commit"}


def events_for(
    ws: Workspace, shas: Iterable[str], session_id: str, *, always: bool = False
) -> tuple[list[str], list[tuple[str, int]]]:
    """One recount event per commit whose change estimates more than it claimed (every one
    with ``always``): the lines, and (commit, tokens) for what to say."""
    lines, counted = [], []
    for sha in shas:
        estimate, files, estimator = _estimate(ws, sha)
        tokens = max(0, estimate - _claimed(ws, sha))
        if not tokens and not always:
            continue
        extra = {"estimator": estimator} if estimator else {}
        _, line = eventlog.event_line(
            "commit",
            session=session_id,
            tokens=tokens,
            files=files,
            label=f"uncounted {sha[:12]}",
            recount=sha,
            **extra,
        )
        lines.append(line.rstrip("\n"))
        counted.append((sha, tokens))
    return lines, counted


def _parents(repo: git.Repo, sha: str) -> list[str]:
    return list(gitquery.log(repo, [sha], limit=1)[0].parents)


def _estimate(ws: Workspace, sha: str) -> tuple[int, int, str]:
    """The tokens of the lines ``sha`` added (new to every parent), as its hook would have
    counted them with today's config: (tokens, files, estimator id)."""
    from tg_git.repo.staged import commits_added, count_all, new_to_both  # lazy: 5.5 ms

    parents: list[str | None] = [*_parents(ws.repo, sha)] or [None]  # None: the empty tree
    first, *others = commits_added(ws.repo, [(sha, p) for p in parents])
    changes = first
    for other in others:
        changes = new_to_both(changes, other)
    counts = [c for c in count_all(changes, ws.config) if c.counted and not c.binary]
    return sum(c.tokens for c in counts), len(counts), counts[0].estimator if counts else ""


def _ledger_lines(repo: git.Repo, revs: Sequence[str]) -> list[set[str]]:
    """Each revision's ledger lines (both layouts, each session's segments too), read in a
    few processes for all of them."""
    return [
        {
            ln
            for obj in held.values()
            for ln in eventlog.event_lines(obj.data.decode("utf-8", "replace"))
        }
        for held in gitquery.files_at(repo, revs, (LEDGER_DIR, LEDGER_PATH), depth=3)
    ]


def _claimed(ws: Workspace, sha: str) -> int:
    """Tokens the commit events ``sha`` added claim (its own count, recounts aside)."""
    mine, *theirs = _ledger_lines(ws.repo, [sha, *_parents(ws.repo, sha)])
    before = set().union(*theirs)
    added = [ln for ln in mine if ln not in before]
    events = eventlog.clean_events("\n".join(added))[1].values() if added else []
    return sum(
        eventlog.count(e, "tokens") for e in events if e["kind"] == "commit" and FIELD not in e
    )


def accept_command(shas: Sequence[str]) -> str:
    """The one command that clears these commits' drift."""
    return "tg-git verify --accept " + " ".join(dict.fromkeys(s[:12] for s in shas))


def resolve(repo: git.Repo, revs: Sequence[str]) -> list[str]:
    """Commit ids for what the user typed; a clear error for anything else."""
    shas = []
    for rev in revs:
        sha = gitquery.rev_parse(repo, rev)
        if sha is None:
            error = TgGitError.from_key("not_a_commit", rev=rev)
            error.code = ExitCode.USAGE
            raise error
        shas.append(sha)
    return list(dict.fromkeys(shas))


def accept(ws: Workspace, revs: Sequence[str]) -> tuple[list[tuple[str, int]], bool]:
    """`tg-git verify --accept COMMIT...`: record each commit as counted (the tokens its
    change estimates beyond its claim) and commit the ledger file alone, so the user's staged
    changes stay staged. A commit counted already but not yet committed (`tg-git repair`
    stages its count) is committed the same way: the push that follows carries it. Returns
    what was counted and whether the commit was made (at the halt it is refused: the event
    is then staged for the next commit)."""
    shas = resolve(ws.repo, revs)
    session = ws.require_session()
    rel = ws.current_ledger_file()
    assert rel is not None
    recorded = ws.recorded_text(rel)
    done = recounted(recorded)
    lines, counted = events_for(ws, [s for s in shas if s not in done], session.id, always=True)
    landed = recounted("\n".join(_ledger_lines(ws.repo, ["HEAD"])[0]))
    staged_only = [s for s in shas if s in done and s not in landed]  # staged, not committed
    if not lines and not staged_only:
        return [], True
    if lines:
        ws.append(*(ln + "\n" for ln in lines))
    counted += [
        (sha, tokens) for sha, tokens in _recount_tokens(recorded).items() if sha in staged_only
    ]
    from tg_git.text import messages  # lazy: 0.3 ms

    names = ", ".join(sha[:12] for sha, _ in counted)
    subject = messages.text(ws.config.language, "accept_subject", commits=names)
    pending = pending_file(rel)  # an older tg-git's pending file, when there is one
    from tg_git.services import waiting  # lazy: 0.3 ms

    paths = waiting.to_worktree(ws, rel)  # git commits by path only a changed file
    paths += [pending] if (ws.repo.root / pending).is_file() else []
    return counted, gitquery.commit_paths(ws.repo, subject, paths, check=False)


def _recount_tokens(text: str) -> dict[str, int]:
    """The tokens each commit's recount events in a ledger text carry."""
    lines = [ln for ln in eventlog.event_lines(text) if f'"{FIELD}"' in ln]
    events = eventlog.clean_events("\n".join(lines))[1].values() if lines else []
    found: dict[str, int] = {}
    for event in events:
        if event.get("kind") == "commit" and event.get(FIELD):
            sha = str(event.get(FIELD))
            found[sha] = found.get(sha, 0) + eventlog.count(event, "tokens")
    return found
