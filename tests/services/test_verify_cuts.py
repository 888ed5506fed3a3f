"""What a cold verify reads of a range's appends without writing or looping over what it does
not use: a code file's cut is kept as its added lines alone (``ledgerdiff.read(...,
texts=False)``: its patch written only when asked), which reads exactly what the whole
reading reads."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

from tests.support.repos import git
from tg_git.repo import ledgerdiff
from tg_git.repo.git import find_repo
from tg_git.repo.staged import parse_patch

LEDGER = ".tg-git/ledger/s20260101000000-0123456789ab.toml"
LINE = (
    'e{n:04d}-000000000000 = {{ "kind" = "note", "at" = "2026-01-01T00:00:00Z", "text" = "{n}" }}\n'
)


def test_code_cuts_read_for_their_lines_alone_read_as_written_ones(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    git(tmp_path, "init", "-q", str(repo))
    rng = random.Random(7)
    files = {name: b"" for name in ("a.py", "b é.py", "c.txt")}
    ledger: list[str] = []
    shas: list[str] = []
    for step in range(40):
        for name in rng.sample(sorted(files), rng.randint(1, 2)):
            if rng.random() < 0.2:  # rewritten: git's patch says
                files[name] = b"rewritten %d\n" % step
            else:
                files[name] += b"x%d = %d\n" % (step, step)
            (repo / name).write_bytes(files[name])
        ledger.append(LINE.format(n=step))
        if rng.random() < 0.3:  # the ledger rewritten too: its patch, with the code's cut
            ledger.reverse()
            notes = repo / ".tg-git" / "ledger" / "notes.md"  # in the ledger's folder: counted
            notes.parent.mkdir(parents=True, exist_ok=True)
            notes.write_text(f"{notes.read_text() if notes.exists() else ''}note {step}\n")
        (repo / LEDGER).parent.mkdir(parents=True, exist_ok=True)
        (repo / LEDGER).write_text("".join(ledger))
        for args in (["add", "-A"], ["commit", "-qm", f"step {step}"]):
            subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
        shas.append(git(repo, "rev-parse", "HEAD").stdout.strip())
    pairs = list(zip(shas, [None, *shas[:-1]]))
    found = find_repo(repo)
    written, _ = ledgerdiff.read(found, pairs)
    alone, _ = ledgerdiff.read(found, pairs, texts=False)
    kept = joined = 0
    for (rest, changes), (lean, lean_changes) in zip(written, alone, strict=True):
        assert lean_changes == changes
        assert ledgerdiff.added(lean) == ledgerdiff.added(rest) == parse_patch(rest)
        if isinstance(lean, ledgerdiff.CodeCut) and not lean:
            kept += 1
            assert lean.whole() == rest and ledgerdiff.added(lean.whole()) == parse_patch(rest)
        joined += b"notes.md" in rest and b"a.py" in rest and lean == rest
    assert kept > 10  # most pairs were cut, and kept as lines alone
    assert joined  # a cut with the ledger folder's patch of a file that counts: written whole
