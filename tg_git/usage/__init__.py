"""Measured usage: the tokens an agent really spent, read from its own logs.

One module per log format (``claude``, ``codex``, ``gemini``) turns the complete lines past
an offset into ``Count`` records and nothing else; ``store`` keeps each transcript's offset
under the git dir, ``discover`` finds the transcripts of a work tree, ``importer`` turns new
counts into ``usage`` ledger events (``clock``: the session's start on the writer's clock),
``view`` shows them. Only counts and ids ever leave a transcript: no prompt, response or
file text.
"""
