"""The README stays a page people read: short, its links alive, its Quick start the one CI runs,
its agent names ones `tg-git agent install` accepts, and every network test listed."""

from __future__ import annotations

import re
from pathlib import Path

from tg_git.agents.formats import AGENTS

PROJECT = Path(__file__).resolve().parents[1]
README = PROJECT / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def readme() -> str:
    return README.read_text(encoding="utf-8")


def anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as dashes."""
    out = set()
    for heading in re.findall(r"^#+ (.+)$", markdown, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


def test_the_readme_has_at_most_300_lines() -> None:
    assert len(readme().splitlines()) <= 300


def test_every_link_in_the_readme_and_docs_leads_somewhere() -> None:
    pages = [README, *sorted((PROJECT / "docs").glob("*.md"))]
    assert any("docs/" in link for link in LINK.findall(readme()))
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for link in LINK.findall(text):
            if re.match(r"[a-z]+:", link):  # https:, mailto:
                continue
            path, _, anchor = link.partition("#")
            target = (page.parent / path).resolve() if path else page
            assert target.exists(), f"{page.name}: {link} does not exist"
            if anchor and target.suffix == ".md":
                found = anchors(target.read_text(encoding="utf-8"))
                assert anchor in found, f"{page.name}: #{anchor} is no heading of {target.name}"


def test_the_quick_start_is_what_ci_runs() -> None:
    section = readme().split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    ci = (PROJECT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert len(commands) == 2 and "tg-git demo" in commands[0]
    assert ci[-2:] == commands


def test_the_intro_names_only_agents_agent_install_accepts() -> None:
    intro = readme().split("## ", 1)[0]
    named = re.search(r"agent's session \(([^)]*)\)", intro)
    assert named is not None, "the intro no longer lists the agents it supports"
    for name in named.group(1).split(","):
        assert name.split()[0].lower() in AGENTS, name


def test_every_network_test_is_listed_with_what_it_installs() -> None:
    listed = dict(re.findall(r"^\| `(tests/[\w/]+\.py::\w+)` \| (.+) \|$", readme(), re.M))
    marked = set()
    for path in sorted((PROJECT / "tests").rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r"@pytest\.mark\.network[^\n]*\n(?:@[^\n]*\n)*def (\w+)", text):
            marked.add(f"{path.relative_to(PROJECT).as_posix()}::{name}")
    assert marked, "no network test found: the pattern is stale"
    assert marked == set(listed), (marked - set(listed), set(listed) - marked)
    assert all(len(what) > 10 for what in listed.values())


# Words about how the code was written, not about the product: a task tracker's numbers, who
# did what, the contract's file quoted as an authority.
LEFTOVER = re.compile(
    r"\b(?:(?i:issues? #?\d+|engineers?\b|owner this session|the lead\b)|SPEC:|notes/[a-z-]+\.md)"
)


def leftovers(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [
                f"{path.relative_to(PROJECT)}:{number}: {m.group(0)}"
                for m in LEFTOVER.finditer(line)
            ]
    return found


def test_the_docs_and_the_package_speak_of_the_product_only() -> None:
    pages = [README, *sorted((PROJECT / "docs").glob("*.md"))]
    code = sorted(
        p for folder in ("tg_git", "tests", "bench") for p in (PROJECT / folder).rglob("*.py")
    )
    code = [p for p in code if p != Path(__file__)]  # this test names what it looks for
    code += sorted((PROJECT / "bench").glob("*.txt"))
    assert not leftovers(pages + code), "\n".join(leftovers(pages + code))


def test_the_leftover_check_sees_one(tmp_path: Path) -> None:
    fake = tmp_path / "x.md"
    fake.write_text("Fixed in issue 22 (Owner this session: engineer b; SPEC: x).\n")
    assert [m.group(0) for m in LEFTOVER.finditer(fake.read_text())] == [
        "issue 22",
        "Owner this session",
        "engineer",
        "SPEC:",
    ]
    assert not LEFTOVER.search("spec: a git revision; engineering")
