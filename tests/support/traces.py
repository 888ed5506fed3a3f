"""What a ``GIT_TRACE`` file shows of the git processes a command started."""

from __future__ import annotations

from pathlib import Path


def traced_reads(trace: Path) -> list[list[str]]:
    """The arguments of each ``git log`` and ``git diff-tree`` a ``GIT_TRACE`` file saw start:
    the processes that list or diff a range (the file is removed: the next command traces
    afresh)."""
    found = [
        ln.split("built-in: git ", 1)[1].split()
        for ln in trace.read_text().splitlines()
        if "built-in: git log" in ln or "built-in: git diff-tree" in ln
    ]
    trace.unlink()
    return found
