"""`tg-git report`: the page's numbers against `status --json`, hostile strings, branches,
checkpoints and the halt, both ledger layouts, and a real headless browser."""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import os
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.support.repos import commit
from tests.support.repos import git
from tests.support.repos import ledger_file
from tests.support.repos import status
from tests.support.repos import tg
from tg_git.domain import eventlog
from tg_git.domain.errors import TgGitError
from tg_git.report import data as report_data
from tg_git.report import history as report_history
from tg_git.report import html as report_html
from tg_git.text import messages
from tg_git.text import term

VOID = {"meta", "br", "img", "input", "link", "hr", "wbr"}


class Element:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Element | None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element] = []
        self.text = ""

    def find_all(self, tag: str | None = None, **attrs: str) -> list[Element]:
        found = []
        for child in self.children:
            if (tag is None or child.tag == tag) and all(
                child.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items()
            ):
                found.append(child)
            found += child.find_all(tag, **attrs)
        return found

    def find(self, tag: str | None = None, **attrs: str) -> Element:
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag} {attrs}> in the page"
        return found[0]


class Page(HTMLParser):
    """The page as a tree of elements, with every start tag and attribute seen."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.current = self.root
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self.feed(text)
        self.close()

    def _open(self, tag: str, attrs: list[tuple[str, str | None]]) -> Element:
        values = {k: v or "" for k, v in attrs}
        self.tags.append(tag)
        self.attributes += list(values.items())
        element = Element(tag, values, self.current)
        self.current.children.append(element)
        return element

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = self._open(tag, attrs)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        node: Element | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None and node.parent is not None, f"stray </{tag}>"
        self.current = node.parent

    def handle_data(self, data: str) -> None:
        node: Element | None = self.current
        while node is not None:
            node.text += data
            node = node.parent


def report_page(repo: Path, *args: str) -> tuple[str, Page]:
    out = repo.parent / "report.html"
    tg(repo, "report", "-o", str(out), *args)
    text = out.read_text(encoding="utf-8")
    return text, Page(text)


def report_json(repo: Path, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(tg(repo, "report", "--json", *args).stdout)
    return data


def add_file(repo: Path, name: str, lines: int, message: str, **env: str) -> None:
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"value_{n} = compute({n}, 'x{n}')\n" for n in range(lines)))
    git(repo, "add", "--", name)
    commit(repo, "-m", message, env=env or None)


def kpis(page: Page, session: str) -> dict[str, tuple[str, str]]:
    dl = page.root.find("dl", data_session=session)
    return {dd.attrs["data-k"]: (dd.attrs["data-v"], dd.text) for dd in dl.find_all("dd")}


def test_page_numbers_match_status_json(repo: Path) -> None:
    tg(repo, "record", "--tokens", "1234")
    add_file(repo, "src/a.py", 30, "a")
    add_file(repo, "src/b.py", 12, "b")
    tg(repo, "record", "--input", "please write the parser now")
    st = status(repo)
    sid = st["session"]["id"]
    text, page = report_page(repo)
    figures = kpis(page, sid)
    for key in ("used", "max_tokens", "input", "output"):
        assert int(figures[key][0]) == st[key], key
        assert figures[key][1].lstrip("~") == f"{st[key]:,}", key
    assert float(figures["percent"][0]) == st["percent"]
    assert figures["level"] == (st["level"], st["level"])
    assert int(figures["commits"][0]) == st["session"]["commits"] == 2
    assert int(figures["inputs"][0]) == 2
    # The curve ends at `used`; its last point is the polyline's last y, on the chart's scale.
    data = report_json(repo)
    assert data["current_session"] == sid
    current = next(s for s in data["sessions"] if s["id"] == sid)
    for key in ("used", "max_tokens", "input", "output", "percent", "level"):
        assert current[key] == st[key], key
    assert current["token_thresholds"] == st["token_thresholds"]
    points = current["burn_down"]["points"]
    assert points[0]["used"] == 0 and points[-1]["used"] == st["used"]
    assert len(points) == 1 + 2 + 2  # start, two commits, two inputs
    svg = page.root.find("svg", **{"class": "chart burn"})
    polyline = svg.find("polyline", **{"class": "used"})
    assert len(polyline.attrs["points"].split()) == len(points)
    labels = [t.text for t in svg.find_all("text")]
    assert {"80 % warning", "90 % force-save", "95 % halt"} <= set(labels)
    # The totals of the session table are the sessions' own figures.
    assert data["totals"]["used"] == sum(s["used"] for s in data["sessions"])
    assert "<script" not in text.lower()


def test_json_error_is_one_object(repo: Path, tmp_path: Path) -> None:
    proc = tg(repo, "report", "--json", "--session", "s-nope", check=False)
    assert proc.returncode == 1
    error = json.loads(proc.stdout)
    assert error["code"] == 1 and "no session" in error["error"]
    proc = tg(repo, "report", "--session", "s-nope", check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("tg-git: ") and proc.stderr.count("\n") == 1
    proc = tg(repo, "report", "-o", str(repo / "README.md" / "r.html"), check=False)
    assert proc.returncode == 1 and "choose another file with -o" in proc.stderr
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    proc = tg(outside, "report", "--json", check=False)
    assert proc.returncode == 3 and json.loads(proc.stdout)["code"] == 3


def test_default_output_stays_out_of_the_work_tree(repo: Path) -> None:
    proc = tg(repo, "report")
    written = Path(proc.stdout.strip())
    assert written.is_file() and written.read_text().startswith("<!DOCTYPE html>")
    assert Path(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip()) in written.parents
    assert git(repo, "status", "--porcelain").stdout == ""
    stdout = tg(repo, "report", "-o", "-").stdout
    assert stdout.startswith("<!DOCTYPE html>") and stdout.endswith("</html>\n")


HOSTILE = "<script>alert(\"x\")</script> 'q' & \x1b[31mred\x07 \u202egnp.exe"
HOSTILE_SHOWN = "<script>alert(\"x\")</script> 'q' & \ufffd[31mred\ufffd \ufffdgnp.exe"


def test_every_user_string_is_escaped(repo: Path) -> None:
    from tg_git.repo.workspace import Workspace

    ws = Workspace.open(repo)
    ws.add_event("task", op="add", title=HOSTILE)
    ws.add_event("task", op="start", title=HOSTILE, note=HOSTILE)
    tg(repo, "record", "--tokens", "7", "--label", HOSTILE)
    evil_dir = 'x"><img src=x onerror=alert(1)>'
    add_file(repo, f"{evil_dir}/a.py", 20, HOSTILE)
    # A path that is not UTF-8, in a two-file commit (re-estimated per file from history).
    raw = repo / os.fsdecode(b"bad\xff<b>.py")
    raw.write_text("print('not utf-8 name')\n" * 5)
    (repo / "ok.py").write_text("x = 1\n" * 40)
    git(repo, "add", "--", os.fsdecode(b"bad\xff<b>.py"), "ok.py")
    commit(repo, "-m", "two files")
    sid = status(repo)["session"]["id"]
    git(repo, "branch", "evil<&\"'>")
    git(repo, "tag", "-a", f"checkpoint/0-<script>\"'&-{sid}-manual", "-m", "hand-made")
    text, page = report_page(repo)

    assert "script" not in page.tags  # nothing the page holds runs
    assert not [k for k, _ in page.attributes if k.startswith("on")]
    assert not [v for k, v in page.attributes if k in ("src", "href")]
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", text)
    task_row = page.root.find("tr", data_task=HOSTILE_SHOWN)  # attribute round-trips
    assert HOSTILE_SHOWN in task_row.text
    body = page.root.find("body").text
    assert body.count(HOSTILE_SHOWN) >= 3  # task, its stopping point, the commit subject
    assert f"{evil_dir}/a.py" in body
    assert "bad\ufffd<b>.py" in body
    assert "evil<&\"'>" in body  # the branch name
    assert f"checkpoint/0-<script>\"'&-{sid}-manual" in body
    # The JSON holds the same strings, control characters escaped by JSON itself.
    data = report_json(repo)
    tasks = next(s for s in data["sessions"] if s["id"] == sid)["tasks"]
    assert any(t["title"] == HOSTILE for t in tasks)
    assert any(c["subject"] == HOSTILE for c in data["costliest_commits"])
    paths = [f["path"] for f in data["costliest_files"]["files"]]
    assert "bad\ufffd<b>.py" in paths and "ok.py" in paths


def test_esc_and_clean() -> None:
    assert report_html.esc('<a href="x">\'&') == "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;"
    assert (
        report_html.esc("a\x00b\x1bc\x7fd\x9fe\u202ef\ud800")
        == "a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffd"
    )
    assert report_html.esc("line\nbreak\ttab") == "line break tab"
    assert report_data.clean_data({"p\udcff": ["x\udcff"]}) == {"p\ufffd": ["x\ufffd"]}


def _report_sources() -> dict[str, str]:
    folder = Path(report_data.__file__).parent
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py"))}


def test_the_report_runs_no_git_of_its_own() -> None:
    """Every git read goes through the gateway's typed queries (``git.log``,
    ``git.branch_heads``, ``git.read_objects``, ...): no module of the report runs a git
    command line of its own, starts a process or parses git's raw tree format."""
    own = re.compile(r"repo\.git\(|repo\.text\(|subprocess|spawn\(|git\.run\(|git\.ok\(|b\"\\0\"")
    sources = _report_sources()
    assert {"data.py", "history.py", "html.py"} <= set(sources)
    for name, source in sources.items():
        assert not own.findall(source), name
        assert len(source.splitlines()) < 600, name


def test_the_page_and_the_terminal_share_one_sanitiser() -> None:
    """The report has no sanitiser of its own: what the terminal strips the page
    marks (U+FFFD), character for character; only ``term`` names those characters."""
    for name, source in _report_sources().items():
        assert not re.search(r"\bimport re\b|\\u[0-9a-f]{4}-|\\x[0-9a-f]{2}-", source), name
    for char in map(chr, [*range(0x250), *range(0x2000, 0x2070), 0x061C, 0xFEFF]):
        shown = report_html.esc(char)
        if char in "\t\n":
            assert shown == " "
        elif term.strip_controls(char) == "":
            assert shown == "\ufffd", hex(ord(char))
        else:
            assert shown == html.escape(char), hex(ord(char))
    assert report_html.esc("\udcff") == "\ufffd" == report_data.clean_data("\udcff")


def test_the_pages_texts_live_in_the_message_home() -> None:
    """The report keeps no table of texts: every heading and label it shows is a
    ``report.*`` message (en and ko side by side with the others)."""
    for name, source in _report_sources().items():
        assert not re.search("[가-힣]", source), name
    used = set(re.findall(r"\bt\[[\"']([\w.]+)[\"']\]", _report_sources()["html.py"]))
    assert len(used) > 25
    for language in ("en", "ko"):  # each is a message (an unknown key is a KeyError)
        assert all(messages.text(language, f"report.{key}").strip() for key in used)


def test_checkpoints_halt_and_override_are_marked(repo: Path) -> None:
    tg(repo, "session", "start", "--max-tokens", "1000")
    tg(repo, "task", "add", "parser")
    tg(repo, "task", "start", "parser")
    commit(repo, "--allow-empty", "-m", "session")
    tg(repo, "checkpoint", "-m", "by hand")
    tg(repo, "record", "--tokens", "880")
    add_file(repo, "a.py", 3, "to force-save")
    tg(repo, "record", "--tokens", str(945 - status(repo)["used"]))  # just under the halt
    add_file(repo, "b.py", 3, "to halt")  # its own change crosses 95 %
    (repo / "c.py").write_text("c = 3\n")
    git(repo, "add", "c.py")
    refused = commit(repo, "-m", "refused", check=False)
    assert refused.returncode != 0 and "Token limit" in refused.stderr
    commit(repo, "-m", "forced", env={"TG_GIT_ALLOW_HALT": "1"})
    st = status(repo)
    assert st["level"] == "halt"
    tags = git(repo, "tag", "--list", "checkpoint/*").stdout.split()
    assert len(tags) == 3  # manual, force-save, halt
    data = report_json(repo)
    session = next(s for s in data["sessions"] if s["id"] == st["session"]["id"])
    curve = session["burn_down"]
    assert [c["tag"] for c in curve["checkpoints"]] == sorted(tags)
    assert [c["level"] for c in curve["checkpoints"]] == ["manual", "force-save", "halt"]
    points = curve["points"]
    halt_at = curve["halt"]
    assert points[halt_at]["used"] >= st["token_thresholds"]["halt"]
    assert points[halt_at - 1]["used"] < st["token_thresholds"]["halt"]
    assert curve["overrides"] == [len(points) - 1] and points[-1]["override"] is True
    assert session["overrides"] == 1 and session["checkpoints"] == 3
    # Each checkpoint sits after the events before its save.
    steps = [c["step"] for c in curve["checkpoints"]]
    assert steps == sorted(steps) and steps[0] == 0
    _, page = report_page(repo)
    svg = page.root.find("svg", **{"class": "chart burn"})
    marked = [g.find("title").text for g in svg.find_all("g", **{"class": "cp"})]
    assert marked == sorted(tags)
    assert len(svg.find_all("g", **{"class": "halt"})) == 1
    assert len(svg.find_all("g", **{"class": "override"})) == 1
    listed = page.root.find("ol", **{"class": "cps"}).text
    assert all(tag in listed for tag in tags)


def test_tokens_per_task_add_up(repo: Path) -> None:
    tg(repo, "record", "--tokens", "11")  # before any task
    tg(repo, "task", "add", "alpha")
    tg(repo, "task", "add", "beta")
    tg(repo, "task", "start", "alpha", "--at", "begun")
    add_file(repo, "a.py", 20, "a")
    tg(repo, "task", "start", "beta")
    tg(repo, "record", "--tokens", "50")
    add_file(repo, "b.py", 10, "b")
    tg(repo, "task", "done", "beta")
    add_file(repo, "c.py", 5, "c")  # beta is done: alpha is in progress again
    tg(repo, "task", "add", "gamma")
    st = status(repo)
    data = report_json(repo)
    session = next(s for s in data["sessions"] if s["id"] == st["session"]["id"])
    tokens = {p["label"]: p["tokens"] for p in session["burn_down"]["points"] if p.get("label")}
    rows = {t["title"]: t for t in session["tasks"]}
    assert rows["alpha"]["tokens"] == tokens["a.py"] + tokens["c.py"]
    assert rows["alpha"]["stopping_point"] == "begun" and rows["alpha"]["status"] == "in_progress"
    assert rows["beta"]["tokens"] == tokens["b.py"] + 50 and rows["beta"]["input"] == 50
    assert rows["beta"]["status"] == "done"
    assert rows["gamma"]["tokens"] == 0 and rows["gamma"]["status"] == "pending"
    assert rows[""]["tokens"] == rows[""]["input"] == 11
    assert sum(r["tokens"] for r in rows.values()) == st["used"]


def test_costliest_files_split_multi_file_commits(repo: Path) -> None:
    (repo / "big.py").write_text("".join(f"big_{n} = {n} * 3\n" for n in range(80)))
    (repo / "small.py").write_text("s = 1\n")
    git(repo, "add", "big.py", "small.py")
    commit(repo, "-m", "two at once")
    data = report_json(repo)
    top = data["costliest_commits"][0]
    assert top["subject"] == "two at once" and top["files"] == 2
    assert top["commit"] == git(repo, "rev-parse", "HEAD").stdout.strip()
    files = {f["path"]: f["tokens"] for f in data["costliest_files"]["files"]}
    assert files["big.py"] > files["small.py"] > 0
    assert files["big.py"] + files["small.py"] == top["tokens"]
    assert data["costliest_files"]["reestimated_commits"] == 1


def test_sessions_side_by_side_per_branch(repo: Path) -> None:
    main_session = status(repo)["session"]["id"]
    add_file(repo, "m.py", 10, "on main")
    on_main = status(repo)  # later, main's work tree keeps the feature's session as its own
    git(repo, "checkout", "-q", "-b", "feature")
    tg(repo, "session", "start", "--max-tokens", "50000")
    add_file(repo, "f.py", 40, "on feature")
    feature = status(repo)
    git(repo, "checkout", "-q", "main")
    data = report_json(repo)
    by_name = {b["name"]: b for b in data["branches"]}
    assert by_name["main"]["current"] and not by_name["feature"]["current"]
    assert [s["id"] for s in by_name["main"]["sessions"]] == [main_session]
    feature_ids = [s["id"] for s in by_name["feature"]["sessions"]]
    assert feature_ids == [main_session, feature["session"]["id"]]
    for branch, st in (("main", on_main), ("feature", feature)):
        row = next(s for s in by_name[branch]["sessions"] if s["id"] == st["session"]["id"])
        for key in ("used", "max_tokens", "input", "output", "level", "percent"):
            assert row[key] == st[key], (branch, key)
        totals = by_name[branch]["totals"]
        assert totals["used"] == sum(s["used"] for s in by_name[branch]["sessions"])
        assert totals["sessions"] == len(by_name[branch]["sessions"])
    _, page = report_page(repo)
    block = page.root.find("div", data_branch="feature")
    assert len(block.find("svg").find_all("g")) == 2  # one bar per session
    foot = block.find("tr", data_totals="feature")
    assert (
        int(foot.find("td", **{"class": "num"}).attrs["data-v"])
        == by_name["feature"]["totals"]["used"]
    )


def test_all_and_one_session(repo: Path) -> None:
    first = status(repo)["session"]["id"]
    add_file(repo, "a.py", 10, "a")
    tg(repo, "session", "start")
    commit(repo, "--allow-empty", "-m", "new session")
    second = status(repo)["session"]["id"]
    assert report_json(repo)["selected"] == [second]
    # (ids start with the start second: two sessions started in one second have no order)
    assert sorted(report_json(repo, "--all")["selected"]) == sorted([first, second])
    one = report_json(repo, "--session", first)
    assert one["selected"] == [first]
    drawn = [s["id"] for s in one["sessions"] if "burn_down" in s]
    assert drawn == [first]
    _, page = report_page(repo, "--all")
    assert len(page.root.find_all("svg", **{"class": "chart burn"})) == 2


def test_korean_page_follows_config(repo: Path) -> None:
    config = repo / ".tg-git" / "config.toml"
    config.write_text(config.read_text().replace('language = "en"', 'language = "ko"'))
    text, page = report_page(repo)
    assert page.root.find("html").attrs["lang"] == "ko"
    assert "소진 추이" in text and "브랜치별 세션" in text and "Burn-down" not in text
    assert report_json(repo)["language"] == "ko"


def test_page_is_self_contained_with_dark_and_print_styles(repo: Path) -> None:
    _, page = report_page(repo)
    csp = [m for m in page.root.find_all("meta") if m.attrs.get("http-equiv")]
    assert csp[0].attrs["content"].startswith("default-src 'none'")
    style = page.root.find("style").text
    assert "@media (prefers-color-scheme: dark)" in style and "@media print" in style
    assert not re.search(r"url\(|@import|https?://", style)
    assert "script" not in page.tags


def test_measured_series_from_usage_events() -> None:
    events: list[tuple[str, Any]] = [  # k4, k5: shapes tg-git does not write (a hand edit)
        ("k1", {"kind": "commit", "at": "2026-01-01T00:00:01Z", "tokens": 100, "files": 1,
                "label": "a.py", "session": "s"}),
        ("k2", {"kind": "usage", "at": "2026-01-01T00:00:02Z", "fill": 5000, "session": "s"}),
        ("k3", {"kind": "input", "at": "2026-01-01T00:00:03Z", "tokens": 40, "session": "s"}),
        ("k4", {"kind": "usage", "at": "2026-01-01T00:00:04Z", "context_fill": 7000,
                "session": "s"}),
        ("k5", {"kind": "usage", "at": "2026-01-01T00:00:05Z", "spend": 9, "session": "s"}),
        ("k6", {"kind": "commit", "at": "2026-01-01T00:00:06Z", "tokens": 60, "files": 2,
                "label": "b.py (+1)", "session": "s", "override": True}),
    ]  # fmt: skip
    curve = report_data.burn_down(
        "2026-01-01T00:00:00Z", events, {"warning": 80, "force_save": 140, "halt": 190}
    )
    assert [p["used"] for p in curve["points"]] == [0, 100, 100, 140, 140, 200]
    assert [m["used"] for m in curve["measured"]] == [5000, 5040, 7000, 7060]
    assert [m["step"] for m in curve["measured"]] == [2, 3, 4, 5]
    assert curve["crossings"] == {"warning": 1, "force_save": 3, "halt": 5}
    assert curve["overrides"] == [5]


def test_reads_both_ledger_layouts(plain_repo: Path) -> None:
    """The single `.tg-git/ledger.toml` and per-session files under `.tg-git/ledger/`, at a
    branch head: the union of both."""
    _, start_a = eventlog.event_line("session", key="ea", id="sa", max_tokens=1000, base="")
    _, commit_a = eventlog.event_line(
        "commit", key="eb", session="sa", tokens=30, files=1, label="x"
    )
    _, start_b = eventlog.event_line("session", key="ec", id="sb", max_tokens=500, base="",
                                   at="2999-01-01T00:00:00Z")  # fmt: skip
    _, input_b = eventlog.event_line("input", key="ed", session="sb", tokens=70)
    folder = plain_repo / ".tg-git" / "ledger"
    folder.mkdir(parents=True)
    (plain_repo / ".tg-git" / "ledger.toml").write_text(eventlog.HEADER + start_a + commit_a)
    (folder / "sb.toml").write_text(start_b + input_b)
    (folder / "README").write_text("not a ledger file\n")
    git(plain_repo, "add", ".")
    git(plain_repo, "commit", "-q", "-m", "both layouts")
    from tg_git.repo import git as git_mod

    repo = git_mod.find_repo(plain_repo)
    head = git_mod.head(repo)
    assert head
    parts = report_history.ledger_blobs(repo, [head, "HEAD~0", "does-not-exist"])
    assert parts["does-not-exist"] is None and parts["HEAD~0"] == parts[head]
    at_head = parts[head]
    assert at_head is not None and len(at_head) == 2
    events = report_history.parse_ledgers(at_head, "test")
    assert set(events) == {"ea", "eb", "ec", "ed"}
    from tg_git.repo.workspace import Workspace

    git(plain_repo, "branch", "other")
    rows = {
        r["name"]: r
        for r in report_data.branches(Workspace.open(plain_repo, require_init=False), {})
    }
    assert rows["main"]["sessions"] == []  # the current branch: the events given (none here)
    sessions = {s["id"]: s for s in rows["other"]["sessions"]}
    assert sessions["sa"]["used"] == 30 and sessions["sb"]["used"] == 70
    assert rows["other"]["totals"]["used"] == 100
    # A file (not a folder) named .tg-git/ledger is not read as one.
    git(plain_repo, "rm", "-rq", ".tg-git/ledger")
    real = bytes.fromhex(git(plain_repo, "rev-parse", "HEAD:.tg-git/ledger.toml").stdout.strip())
    (plain_repo / ".tg-git" / "ledger").write_bytes(b"100644 x.toml\0" + real)  # tree-shaped
    git(plain_repo, "add", ".tg-git/ledger")
    git(plain_repo, "commit", "-q", "-m", "a file where the folder was")
    only = report_history.ledger_blobs(repo, ["HEAD"])["HEAD"]
    assert only is not None and len(only) == 1 and b"ea = " in only[0]


def test_only_files_in_another_branchs_ledger_folder_are_read(repo: Path) -> None:
    """A link or a folder named like a session's file is not a ledger file (the link's target
    would be read as TOML and the whole branch shown unreadable): that branch's sessions are
    still counted."""
    git(repo, "checkout", "-q", "-b", "odd")
    folder = repo / ".tg-git" / "ledger"
    (folder / "link.toml").symlink_to("/etc/hostname")
    (folder / "sub.toml").mkdir()
    (folder / "sub.toml" / "a.toml").write_text("not = [a ledger\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", "a link and a folder")
    git(repo, "checkout", "-q", "main")
    rows = {b["name"]: b for b in report_json(repo)["branches"]}
    assert rows["odd"]["error"] == ""
    assert [s["id"] for s in rows["odd"]["sessions"]] == [s["id"] for s in rows["main"]["sessions"]]


CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
PROBE = (
    "document.body.setAttribute('data-probe', JSON.stringify({"
    "svgs: Array.from(document.querySelectorAll('svg.chart')).map(function (s) {"
    "var r = s.getBoundingClientRect(); return [r.width, r.height]; }),"
    "bg: getComputedStyle(document.documentElement).backgroundColor}));"
)


def _browser_env(tmp: Path) -> dict[str, str]:
    """Chromium writes a profile, a dconf cache and more under HOME and the XDG folders: all of
    it goes to the test's own folder (the suite fails a test that writes its HOME unasked)."""
    own = tmp / "browser-home"
    return {
        **os.environ,
        "HOME": str(own),
        "XDG_CONFIG_HOME": str(own / ".config"),
        "XDG_CACHE_HOME": str(own / ".cache"),
        "XDG_DATA_HOME": str(own / ".local" / "share"),
        "XDG_RUNTIME_DIR": str(own / "run"),
    }


def _browse(page: Path, tmp: Path, *extra: str) -> tuple[dict[str, Any], str]:
    """Render a copy of the page with a probe script (allowed by its hash in the page's own
    policy, so any other script or load is still refused and logged) and return what the
    probe measured and the browser's console lines."""
    digest = base64.b64encode(hashlib.sha256(PROBE.encode()).digest()).decode()
    text = page.read_text(encoding="utf-8")
    policy = report_html.CSP
    assert policy in text
    probed = text.replace(policy, f"{policy}; script-src 'sha256-{digest}'").replace(
        "</body>", f"<script>{PROBE}</script></body>"
    )
    copy = tmp / f"probed-{len(extra)}.html"
    copy.write_text(probed, encoding="utf-8")
    proc = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp / f'profile-{len(extra)}'}",
         "--enable-logging=stderr", "--v=0", *extra, "--dump-dom", copy.as_uri()],
        capture_output=True, text=True, timeout=120, env=_browser_env(tmp),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = Page(proc.stdout)
    probe = dom.root.find("body").attrs.get("data-probe")
    assert probe, "the probe did not run"
    console = [ln for ln in proc.stderr.splitlines() if ":CONSOLE" in ln]
    return json.loads(probe), "\n".join(console)


@pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="no headless browser: /usr/bin/chromium is missing (apt-get install chromium)",
)
def test_renders_in_headless_chromium(repo: Path, tmp_path: Path) -> None:
    tg(repo, "session", "start", "--max-tokens", "1000")
    commit(repo, "--allow-empty", "-m", "session")
    from tg_git.repo.workspace import Workspace

    ws = Workspace.open(repo)
    ws.add_event("task", op="add", title=HOSTILE)
    ws.add_event("task", op="start", title=HOSTILE)
    tg(repo, "record", "--tokens", "930")
    add_file(repo, "a.py", 5, HOSTILE)
    (repo / "b.py").write_text("b = 2\n")
    git(repo, "add", "b.py")
    commit(repo, "-m", "forced", env={"TG_GIT_ALLOW_HALT": "1"})
    out = tmp_path / "report.html"
    tg(repo, "report", "-o", str(out))
    light, console = _browse(out, tmp_path)
    assert console == "", f"console messages: {console}"
    charts = light["svgs"]
    assert len(charts) >= 3  # the io bar, the burn-down, a branch's sessions
    assert all(w > 100 and h > 10 for w, h in charts), charts
    dark, console = _browse(out, tmp_path, "--force-dark-mode")
    assert console == "", f"console messages: {console}"
    assert dark["bg"] != light["bg"]  # prefers-color-scheme: dark applies
    # Printing works too: a PDF comes out.
    pdf = tmp_path / "report.pdf"
    subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile-pdf'}",
         "--no-pdf-header-footer", f"--print-to-pdf={pdf}", out.as_uri()],
        capture_output=True, timeout=120, check=True, env=_browser_env(tmp_path),
    )  # fmt: skip
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 5000


def test_a_broken_ledger_on_another_branch_is_named_not_fatal(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "broken")
    with ledger_file(repo).open("a") as fh:
        fh.write("<script> = [\n")
    git(repo, "commit", "-q", "--no-verify", "-am", "break the ledger")
    git(repo, "checkout", "-q", "main")
    data = report_json(repo)
    rows = {b["name"]: b for b in data["branches"]}
    assert "not valid TOML" in rows["broken"]["error"] and rows["broken"]["sessions"] == []
    assert rows["main"]["error"] == "" and rows["main"]["sessions"]
    _, page = report_page(repo)
    block = page.root.find("div", data_branch="broken")
    assert "not valid TOML" in block.find("p", **{"class": "bad"}).text


def test_checkpoint_in_the_same_second_as_later_events() -> None:
    points = [
        {"at": "2026-01-01T00:00:00Z", "used": 0},
        {"at": "2026-01-01T00:00:05Z", "used": 100},
        {"at": "2026-01-01T00:00:05Z", "used": 300},
        {"at": "2026-01-01T00:00:09Z", "used": 400},
    ]
    saved = {"timestamp": "2026-01-01T00:00:05Z", "used": 100}
    assert report_data.place(points, saved) == 1  # not after the event of the same second
    assert report_data.place(points, {"timestamp": "2026-01-01T00:00:05Z", "used": None}) == 2
    assert report_data.place(points, {"timestamp": "", "used": 300}) == 2
    assert report_data.place(points, {"timestamp": "2025-12-31T00:00:00Z", "used": 0}) == 0


def test_measured_series_is_drawn_apart_from_the_estimate(repo: Path) -> None:
    add_file(repo, "a.py", 10, "a")
    data = report_json(repo)
    session = next(s for s in data["sessions"] if "burn_down" in s)
    assert session["burn_down"]["measured"] == []
    _, page = report_page(repo)
    assert not page.root.find_all("polyline", **{"class": "measured"})
    # The same data with a usage event's measured fill, as `burn_down` returns it.
    session["burn_down"]["measured"] = [{"step": 1, "at": "2026-01-01T00:00:00Z", "used": 4321}]
    drawn = Page(report_html.render(data, "o200k"))
    line = drawn.root.find("polyline", **{"class": "measured"})
    assert len(line.attrs["points"].split()) == 1
    assert "measured (agent logs)" in drawn.root.find("figcaption").text


def test_one_earlier_output_is_named_as_one(repo: Path) -> None:
    """Eleven outputs fold the first into one row, "Output 1", never "1–1"."""

    def output(n: int) -> None:
        (repo / f"step{n}.py").write_text(f"step = {n}\n")
        git(repo, "add", f"step{n}.py")
        commit(repo, "-m", f"step {n}")

    for n in range(11):
        output(n)
    out = tg(repo, "status").stdout
    assert "1–1" not in out and "| Output 1: earlier commit | ~" in out, out
    output(11)
    assert "| Outputs 1–2: earlier commits | ~" in tg(repo, "status").stdout
    tg(repo, "config", "set", "language", "ko")
    assert "| 출력 1–2: 이전 커밋 |" in tg(repo, "status").stdout


def test_threshold_labels_of_the_burn_down_never_overlap(repo: Path) -> None:
    """Budget, halt, force-save and warning labels sit apart (11 px text)
    however close their lines are, each as near its own line as that allows."""
    add_file(repo, "a.py", 10, "a")
    tg(repo, "config", "set", "thresholds.halt", "98")
    tg(repo, "config", "set", "thresholds.force_save", "97")
    _, page = report_page(repo)
    ys = [
        float(n.attrs["y"])
        for n in page.root.find_all("text")
        if "th-label" in n.attrs.get("class", "")
    ]
    assert len(ys) == 4
    assert all(b - a >= 12 for a, b in itertools.pairwise(ys)), ys


def test_the_ledger_is_grouped_and_each_session_replayed_once(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report groups the ledger's events by session once and replays each session once
    (at 100,000 events a grouping costs ~40 ms, a replay of the current session
    ~20): the current branch's sessions are the summaries the report already made, equal to
    what grouping its events again gives, and the current session is its own replay."""
    from tg_git.domain import replay
    from tg_git.repo.workspace import Workspace

    add_file(repo, "a.py", 10, "a")
    tg(repo, "session", "start")
    add_file(repo, "b.py", 20, "b")
    ws = Workspace.open(repo)
    calls: list[int] = []
    real = report_data.group

    def counted(events: Any) -> Any:
        calls.append(len(events))
        return real(events)

    replays: list[int] = []
    real_replay = replay.replay

    def counted_replay(events: Any, use_measured: bool = True) -> Any:
        replays.append(len(events))
        return real_replay(events, use_measured)

    monkeypatch.setattr(report_data, "group", counted)
    monkeypatch.setattr(replay, "replay", counted_replay)
    data = report_data.build(ws)
    assert calls == [len(ws.events())]
    assert len(replays) == len(data["sessions"]) == 2
    assert data["current_session"] == status(repo)["session"]["id"]
    current = next(b for b in data["branches"] if b["current"])
    monkeypatch.setattr(report_data, "group", real)
    assert current["sessions"] == report_data._branch_sessions(ws.events(), {}, ws.config)
    assert [s["id"] for s in current["sessions"]] == [s["id"] for s in data["sessions"]]


def test_the_report_reads_the_ledger_with_the_cycle_collector_paused(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report's numbers are built with Python's cycle collector paused (the ledger's
    events are many small dicts without cycles that live to the end: each full collection
    walks them all to free nothing) and it is on again after, also when the build fails."""
    import gc

    from tg_git.repo.workspace import Workspace

    add_file(repo, "a.py", 10, "a")
    ws = Workspace.open(repo)
    seen: list[bool] = []
    real = Workspace.events

    def watched(self: Workspace) -> Any:
        seen.append(gc.isenabled())
        return real(self)

    monkeypatch.setattr(Workspace, "events", watched)
    assert gc.isenabled()
    data = report_data.build(ws)
    assert data["events"] and seen == [False]
    assert gc.isenabled()
    with pytest.raises(TgGitError):
        report_data.build(ws, session_id="s-not-there")
    assert gc.isenabled()
