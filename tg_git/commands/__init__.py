"""One thin module per command; each takes keyword arguments and returns an exit code.

Nothing is imported here: `tg-git CMD` imports CMD's module alone (``cli.dispatch``), and
importing any one module of this package runs this file first.
"""
