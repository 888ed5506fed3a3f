"""`tg-git report`: every session's budget, from the ledger and history, as data and as one
self-contained HTML page (inline SVG and CSS, no script, no network).

Three modules, each with one job: ``history`` reads what the report needs from git (through
the git gateway's typed queries), ``data`` gathers the ledger's sessions and events into
the figures (``build``: what ``--json`` prints as it is), and ``html`` draws the page from
that same dict (``render``), so the page and the JSON can never disagree.
"""
