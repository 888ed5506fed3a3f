"""The report's page: one self-contained HTML document (inline SVG and CSS, no script, no
network) drawn from ``data.build``'s dict, so the page and ``--json`` never disagree.

Every string from data goes through ``esc``, which uses the one sanitiser of terminal and
page output (``term.mark_line``): control characters, bidi controls and lone surrogates
show as U+FFFD and never reach the page. The page's texts are the message home's
(``report.*``, and the level and task names the CLI prints too).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tg_git.text import messages, term

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"  # nothing leaves the page
THRESHOLDS = {"warning": "warning", "force_save": "force-save", "halt": "halt"}  # -> level id
Row = Mapping[str, Any]  # a session, a table row: data.build's dicts


def esc(text: object) -> str:
    """Any user string, safe in HTML text and in a double-quoted attribute."""
    return html.escape(term.mark_line(str(text)), quote=True)


class Texts:
    """The page's texts in one language: ``t["title"]`` is the message ``report.title``."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __getitem__(self, key: str) -> str:
        return messages.text(self.language, f"report.{key}")

    def name(self, family: str, value: str) -> str:
        """A level's or a task status's name (``level.halt``, ``task.done``); the value
        itself where the message home has no name for it."""
        try:
            return messages.text(self.language, f"{family}.{value}")
        except KeyError:
            return value

    @property
    def none(self) -> str:
        return messages.text(self.language, "none")

    def threshold(self, name: str) -> str:
        """A threshold's name (``force_save``): its level's."""
        return self.name("level", THRESHOLDS[name])


def _css() -> str:
    # beside this module, as prices.json is read: importlib.resources costs the report ~13 ms
    return Path(__file__).with_name("report.css").read_text(encoding="utf-8")


def _n(value: int) -> str:
    return f"{value:,}"


def _short(value: float) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:.3g}M"
    if value >= 1000:
        return f"{value / 1000:.3g}k"
    return f"{value:.0f}"


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _thin(count: int, limit: int) -> list[int]:
    """At most ``limit`` indices of ``count`` points, first and last kept: a cumulative
    curve keeps its shape, and the page stays small for a session of 10,000 events."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)} | {count - 1})


def _apart(ys: Sequence[float], gap: float = 12.0) -> list[float]:
    """Label heights for lines at ``ys`` (top to bottom): each on its line unless that is
    within ``gap`` (11 px text) of the label above, then just below that one. Thresholds
    a few percent apart (95 % and 100 %) would otherwise print over each other."""
    placed: list[float] = []
    for value in ys:
        placed.append(max(value, placed[-1] + gap) if placed else value)
    return placed


def _burn_svg(s: Row, pct: Mapping[str, float], t: Texts) -> str:
    curve = s["burn_down"]
    points = curve["points"]
    budget = s.get("window") or s["max_tokens"]  # the context window in use
    limits = s["token_thresholds"]
    width, height, left, right, top, bottom = 760, 300, 56, 128, 14, 40
    steps = max(len(points) - 1, 1)
    highest = max([budget, *(p["used"] for p in points), *(m["used"] for m in curve["measured"])])
    scale = highest * 1.04 or 1

    def x(i: float) -> str:
        return _f(left + (width - left - right) * i / steps)

    def y(v: float) -> str:
        return _f(top + (height - top - bottom) * (1 - v / scale))

    out = [
        f'<svg class="chart burn" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{esc(t["burn_label"].format(id=s["id"]))}">'
    ]
    for frac in (0, 0.25, 0.5, 0.75):
        v = budget * frac
        out.append(
            f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(v)}" y2="{y(v)}"/>'
            f'<text class="tick" x="{left - 6}" y="{y(v)}" dy="4" text-anchor="end">'
            f"{_short(v)}</text>"
        )
    lines = [
        ("budget", budget, f"100 % {t['budget_line']} {_short(budget)}"),
        *(
            (name, limits[name], f"{_f(pct[name])} % {t.threshold(name)}")
            for name in ("halt", "force_save", "warning")
        ),
    ]
    at = _apart([float(y(tokens)) for _, tokens, _ in lines])
    for (name, tokens, label), label_y in zip(lines, at):
        out.append(
            f'<line class="th th-{name}" x1="{left}" x2="{width - right}" y1="{y(tokens)}" '
            f'y2="{y(tokens)}"/><text class="th-label th-{name}" x="{width - right + 6}" '
            f'y="{_f(label_y)}" dy="4">{esc(label)}</text>'
        )
    out.append(
        f'<line class="axis" x1="{left}" x2="{width - right}" y1="{y(0)}" y2="{y(0)}"/>'
        f'<text class="tick" x="{left}" y="{height - bottom + 16}">{esc(points[0]["at"])}</text>'
        f'<text class="tick" x="{width - right}" y="{height - bottom + 16}" text-anchor="end">'
        f"{esc(points[-1]['at'])}</text>"
        f'<text class="tick" x="{x(steps / 2)}" y="{height - bottom + 32}" '
        f'text-anchor="middle">{esc(t["axis"])}</text>'
    )
    keep = _thin(len(points), 1500)
    estimated = " ".join(f"{x(i)},{y(points[i]['used'])}" for i in keep)
    out.append(f'<polyline class="used" points="{estimated}"/>')
    measured = curve["measured"]
    if measured:
        keep_m = _thin(len(measured), 1500)
        series = " ".join(f"{x(measured[i]['step'])},{y(measured[i]['used'])}" for i in keep_m)
        out.append(f'<polyline class="measured" points="{series}"/>')
        for i in keep_m if len(keep_m) <= 200 else ():  # one reading is a point, not a line
            m = measured[i]
            out.append(
                f'<circle class="dot dot-measured" cx="{x(m["step"])}" cy="{y(m["used"])}" '
                f'r="3"><title>{esc(m["at"])} · {m["used"]:,}</title></circle>'
            )
    if len(points) <= 200:
        for i, p in enumerate(points[1:], start=1):
            tip = f"{p['at']} · {p['kind']} +{p['tokens']:,} · {p['used']:,}"
            if p.get("label"):
                tip += f" · {p['label']}"
            out.append(
                f'<circle class="dot dot-{esc(p["kind"])}" cx="{x(i)}" cy="{y(p["used"])}" '
                f'r="2.5"><title>{esc(tip)}</title></circle>'
            )
    for n, cp in enumerate(curve["checkpoints"], start=1):
        cx = x(cp["step"])
        value = cp["used"] if cp["used"] is not None else points[cp["step"]]["used"]
        out.append(
            f'<g class="cp"><line x1="{cx}" x2="{cx}" y1="{top}" y2="{y(0)}"/>'
            f'<circle cx="{cx}" cy="{y(value)}" r="4"/>'
            f'<text x="{cx}" y="{top + 10 + 11 * ((n - 1) % 3)}" dx="3">C{n}</text>'
            f"<title>{esc(cp['tag'])}</title></g>"
        )
    halt = curve["halt"]
    if halt is not None:
        hx = x(halt)
        out.append(
            f'<g class="halt"><line x1="{hx}" x2="{hx}" y1="{top}" y2="{y(0)}"/>'
            f'<text x="{hx}" y="{_f(float(y(0)) - 4)}" dx="-3" text-anchor="end">{esc(t.threshold("halt"))}</text>'
            f"</g>"
        )
    for i in curve["overrides"]:
        p = points[i]
        out.append(
            f'<g class="override"><text x="{x(i)}" y="{y(p["used"])}" dy="4" '
            f'text-anchor="middle">×</text><title>{esc(t["override"])} · {esc(p["at"])} · '
            f"+{p['tokens']:,} · {esc(p.get('label', ''))}</title></g>"
        )
    out.append("</svg>")
    return "".join(out)


def _legend(s: Row, t: Texts) -> str:
    items = [f'<span class="key key-used"></span>{esc(t["estimated"])}']
    if s["burn_down"]["measured"]:
        items.append(f'<span class="key key-measured"></span>{esc(t["measured"])}')
    items += [
        f'<span class="key key-th th-{name}"></span>{esc(t.threshold(name))}'
        for name in ("warning", "force_save", "halt")
    ]
    if s["burn_down"]["checkpoints"]:
        items.append(f'<span class="key key-cp"></span>{esc(t["checkpoint"])}')
    if s["burn_down"]["overrides"]:
        items.append(f'<span class="key-x">×</span>{esc(t["override"])}')
    return '<p class="legend">' + " ".join(f"<span>{i}</span>" for i in items) + "</p>"


def _io_svg(used_in: int, used_out: int, budget: int, t: Texts) -> str:
    width, height = 760, 26
    scale = max(budget, used_in + used_out) or 1
    w_in = width * used_in / scale
    w_out = width * used_out / scale
    return (
        f'<svg class="chart io" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{esc(t["io_title"])}">'
        f'<rect class="track" x="0" y="4" width="{width}" height="18"/>'
        f'<rect class="in" x="0" y="4" width="{_f(w_in)}" height="18">'
        f"<title>{esc(t['input'])} {used_in:,}</title></rect>"
        f'<rect class="out" x="{_f(w_in)}" y="4" width="{_f(w_out)}" height="18">'
        f"<title>{esc(t['output'])} {used_out:,}</title></rect></svg>"
    )


def _kpis(s: Row, t: Texts) -> str:
    items = [
        ("used", s["used"], f"~{_n(s['used'])}"),
        ("max_tokens", s["max_tokens"], _n(s["max_tokens"])),
        ("percent", s["percent"], f"{s['percent']:.2f} %"),
        ("level", s["level"], t.name("level", s["level"])),
        ("input", s["input"], _n(s["input"])),
        ("output", s["output"], _n(s["output"])),
        ("commits", s["commits"], _n(s["commits"])),
        ("inputs", s["inputs"], _n(s["inputs"])),
        ("checkpoints", s["checkpoints"], _n(s["checkpoints"])),
        ("overrides", s["overrides"], _n(s["overrides"])),
    ]
    cells = "".join(
        f'<div><dt>{esc(t[key])}</dt><dd data-k="{key}" data-v="{esc(value)}" '
        f'class="lvl-{esc(value) if key == "level" else ""}">{esc(shown)}</dd></div>'
        for key, value, shown in items
    )
    return f'<dl class="kpi" data-session="{esc(s["id"])}">{cells}</dl>'


def _head(t: Texts, *keys: str) -> str:
    """Table headings; a key starting with ``#`` heads a column of numbers."""
    return "".join(
        f'<th class="num">{esc(t[k[1:]])}</th>'
        if k.startswith("#")
        else f"<th>{esc(t[k]) if k else ''}</th>"
        for k in keys
    )


def _muted(text: str) -> str:
    return f'<span class="muted">{esc(text)}</span>'


def _note(text: str) -> str:
    return f'<p class="muted">{esc(text)}</p>'


def _bar(value: int, largest: int) -> str:
    share = 100 * value / largest if largest else 0
    return f'<span class="bar"><span style="width:{_f(share)}%"></span></span>'


def _table(
    rows: Sequence[Row], head: str, draw: Callable[[Row, int], str], t: Texts, attrs: str = ""
) -> str:
    """A table of ``rows``, each drawn by ``draw`` with the largest token figure (the full
    length of its bar); "none" without rows."""
    if not rows:
        return _note(t.none)
    largest = max(r["tokens"] for r in rows)
    body = "".join(draw(r, largest) for r in rows)
    return f"<table{attrs}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _tasks_table(rows: Sequence[Row], t: Texts) -> str:
    def draw(r: Row, largest: int) -> str:
        status = t.name("task", r["status"]) if r["status"] else ""
        return (
            f'<tr data-task="{esc(r["title"])}"><td>{esc(r["title"] or t["no_task"])}</td>'
            f"<td>{esc(status)}</td><td>{esc(r['stopping_point'])}</td>"
            f'<td class="num" data-v="{r["tokens"]}">{_n(r["tokens"])}</td>'
            f"<td>{_bar(r['tokens'], largest)}</td>"
            f'<td class="num">{_n(r["input"])}</td><td class="num">{_n(r["output"])}</td>'
            f'<td class="num">{_n(r["commits"])}</td></tr>'
        )

    head = _head(
        t, "task", "status", "stopping_point", "#tokens", "", "#input", "#output", "#commits"
    )
    return _table(rows, head, draw, t, ' class="tasks"')


def _checkpoint_list(s: Row, t: Texts) -> str:
    saves = s["burn_down"]["checkpoints"]
    if not saves:
        return _note(t["no_checkpoints"])
    items = "".join(
        f'<li><b>C{n}</b> <code class="tag">{esc(cp["tag"])}</code> · '
        f"{esc(t.name('level', cp['level']))} · "
        + (f"~{_n(cp['used'])} · " if cp["used"] is not None else "")
        + f"{esc(cp['timestamp'])}</li>"
        for n, cp in enumerate(saves, start=1)
    )
    return f'<ol class="cps">{items}</ol>'


def _session_section(s: Row, data: Row, t: Texts) -> str:
    badge = f' <span class="badge">{esc(t["current"])}</span>' if s["current"] else ""
    return (
        f'<section class="session" id="session-{esc(s["id"])}">'
        f"<h2>{esc(t['session'])} <code>{esc(s['id'])}</code>{badge}</h2>"
        f'<p class="muted">{esc(t["started"])} {esc(s["started"])}</p>'
        f"{_kpis(s, t)}"
        f"<h3>{esc(t['io_title'])}</h3>{_io_svg(s['input'], s['output'], s['max_tokens'], t)}"
        f'<p class="legend"><span><span class="key key-in"></span>{esc(t["input"])} '
        f'{_n(s["input"])}</span> <span><span class="key key-out"></span>{esc(t["output"])} '
        f"{_n(s['output'])}</span></p>"
        f"<h3>{esc(t['burn_title'])}</h3><figure>{_burn_svg(s, data['thresholds_percent'], t)}"
        f"<figcaption>{_legend(s, t)}</figcaption></figure>"
        f"{_checkpoint_list(s, t)}"
        f"<h3>{esc(t['tasks_title'])}</h3>{_tasks_table(s['tasks'], t)}"
        f"</section>"
    )


def _commits_section(data: Row, t: Texts) -> str:
    several = len(data["selected"]) > 1  # with one session drawn, its id is in the heading

    def draw(r: Row, largest: int) -> str:
        return (
            f'<tr data-key="{esc(r["key"])}"><td class="num" data-v="{r["tokens"]}">'
            f"{_n(r['tokens'])}</td><td>{_bar(r['tokens'], largest)}</td>"
            f"<td>{esc(r['subject']) if r['subject'] else _muted(t['not_found'])}"
            + (f' <span class="badge bad">{esc(t["override"])}</span>' if r["override"] else "")
            + f'</td><td><code>{esc(r["label"])}</code></td><td class="num">{_n(r["files"])}</td>'
            + (f'<td><code class="id">{esc(r["session"])}</code></td>' if several else "")
            + f'<td class="when">{esc(r["at"])}</td>'
            f'<td><code class="id">{esc(r["commit"][:10])}</code></td></tr>'
        )

    columns = ("#tokens", "", "subject", "paths", "files", "session", "when", "commit")
    head = _head(t, *(k for k in columns if k != "session" or several))
    table = _table(data["costliest_commits"], head, draw, t)
    return f'<section id="commits"><h2>{esc(t["commits_title"])}</h2>{table}</section>'


def _files_section(data: Row, t: Texts) -> str:
    files = data["costliest_files"]

    def draw(r: Row, largest: int) -> str:
        return (
            f'<tr><td><code>{esc(r["path"])}</code></td><td class="num" data-v="{r["tokens"]}">'
            f"{_n(r['tokens'])}</td><td>{_bar(r['tokens'], largest)}</td>"
            f'<td class="num">{_n(r["commits"])}</td></tr>'
        )

    table = _table(files["files"], _head(t, "path", "#tokens", "", "commits"), draw, t)
    note = t["files_note"].format(n=files["reestimated_commits"], u=files["unattributed"])
    return f'<section id="files"><h2>{esc(t["files_title"])}</h2>{table}{_note(note)}</section>'


def _sessions_svg(sessions: Sequence[Row], branch: str, pct: Mapping[str, float]) -> str:
    shown = list(sessions[-40:])
    width, row, label_w, text_w = 800, 22, 210, 150
    height = row * len(shown) + 26
    scale = max([100.0, *(float(s["percent"]) for s in shown)])
    x0, x1 = label_w, width - text_w

    def px(p: float) -> float:
        return x0 + (x1 - x0) * p / scale

    def sx(p: float) -> str:
        return _f(px(p))

    out = [
        f'<svg class="chart sessions" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{esc(branch)}">'
    ]
    for n, s in enumerate(shown):
        top = 4 + n * row
        budget = s["max_tokens"] or 1
        p_in = 100 * s["input"] / budget
        p_out = 100 * s["output"] / budget
        cls = " current" if s.get("current") else ""
        out.append(
            f'<g class="srow{cls}"><text class="sid" x="{x0 - 6}" y="{top + 13}" '
            f'text-anchor="end">{esc(s["id"])}</text>'
            f'<rect class="track" x="{x0}" y="{top + 2}" width="{x1 - x0}" height="14"/>'
            f'<rect class="in" x="{x0}" y="{top + 2}" width="{_f(px(p_in) - x0)}" height="14"/>'
            f'<rect class="out" x="{sx(p_in)}" y="{top + 2}" '
            f'width="{_f(px(p_in + p_out) - px(p_in))}" height="14"/>'
            f'<text class="tick" x="{x1 + 6}" y="{top + 13}">~{_short(s["used"])} / '
            f"{_short(s['max_tokens'])} ({s['percent']:.0f} %)</text>"
            f"<title>{esc(s['id'])} · {s['used']:,} / {s['max_tokens']:,}</title></g>"
        )
    bottom = 4 + len(shown) * row
    for name, p in (*pct.items(), ("budget", 100.0)):
        out.append(f'<line class="th th-{name}" x1="{sx(p)}" x2="{sx(p)}" y1="2" y2="{bottom}"/>')
    out.append(
        f'<text class="tick" x="{x0}" y="{bottom + 14}">0</text>'
        f'<text class="tick" x="{sx(100)}" y="{bottom + 14}" text-anchor="middle">100 %</text>'
        "</svg>"
    )
    return "".join(out)


def _branches_section(data: Row, t: Texts) -> str:
    parts = [
        f'<section id="sessions"><h2>{esc(t["sessions_title"])}</h2>{_note(t["sessions_note"])}'
    ]
    for b in data["branches"]:
        badge = f' <span class="badge">{esc(t["current"])}</span>' if b["current"] else ""
        parts.append(
            f'<div class="branch" data-branch="{esc(b["name"])}"><h3>{esc(t["branch"])} '
            f'<code>{esc(b["name"])}</code>{badge} <small class="muted">'
            f"{esc(b['head'][:10])}</small></h3>"
        )
        if b["error"]:
            parts.append(f'<p class="bad">{esc(t["ledger_error"])}: {esc(b["error"])}</p>')
        if not b["sessions"]:
            if not b["error"]:
                parts.append(_note(t["no_ledger"]))
            parts.append("</div>")
            continue
        marked = [{**s, "current": s["id"] == data["current_session"]} for s in b["sessions"]]
        parts.append(_sessions_svg(marked, b["name"], data["thresholds_percent"]))
        head = _head(
            t,
            "session",
            "started",
            "#used",
            "#max_tokens",
            "#percent",
            "level",
            "#input",
            "#output",
            "#commits",
        )
        body = "".join(
            f'<tr data-session="{esc(s["id"])}"><td><code>{esc(s["id"])}</code></td>'
            f"<td>{esc(s['started'])}</td>"
            f'<td class="num" data-v="{s["used"]}">{_n(s["used"])}</td>'
            f'<td class="num">{_n(s["max_tokens"])}</td>'
            f'<td class="num">{s["percent"]:.2f} %</td><td class="lvl-{esc(s["level"])}">'
            f"{esc(t.name('level', s['level']))}</td>"
            f'<td class="num">{_n(s["input"])}</td><td class="num">{_n(s["output"])}</td>'
            f'<td class="num">{_n(s["commits"])}</td></tr>'
            for s in b["sessions"]
        )
        tot = b["totals"]
        foot = (
            f'<tr class="totals" data-totals="{esc(b["name"])}"><th>{esc(t["totals"])} '
            f"({tot['sessions']})</th><td></td>"
            f'<td class="num" data-v="{tot["used"]}">{_n(tot["used"])}</td>'
            f'<td class="num">{_n(tot["max_tokens"])}</td><td></td><td></td>'
            f'<td class="num">{_n(tot["input"])}</td><td class="num">{_n(tot["output"])}</td>'
            f'<td class="num">{_n(tot["commits"])}</td></tr>'
        )
        parts.append(
            f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
            f"<tfoot>{foot}</tfoot></table></div>"
        )
    parts.append("</section>")
    return "".join(parts)


def render(data: Row, profile: str = "") -> str:
    """The page: one HTML document, its CSS and SVG inline, no script, no network."""
    lang = "ko" if data["language"] == "ko" else "en"  # the message home's languages
    t = Texts(lang)
    chosen = [s for s in data["sessions"] if "burn_down" in s]
    chosen.sort(key=lambda s: not s["current"])  # the current session first
    meta = t["generated"].format(
        at=data["generated"],
        events=data["events"],
        sessions=len(data["sessions"]),
        version=data["tool_version"],
    )
    body = "".join(_session_section(s, data, t) for s in chosen)
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{esc(t['title'])} — {esc(data['project'])}</title>"
        f"<style>{_css()}</style></head>\n<body><header>"
        f"<h1>{esc(t['title'])} — {esc(data['project'])}</h1>"
        f'<p class="muted">{esc(meta)}</p></header><main>'
        f"{body}{_commits_section(data, t)}{_files_section(data, t)}"
        f"{_branches_section(data, t)}</main>"
        f'<footer class="muted">{esc(t["footer"].format(profile=profile or "?"))}</footer>'
        "</body></html>\n"
    )
