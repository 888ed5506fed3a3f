"""Vocabularies of the tokenizers that may be shipped, for the estimator's vocabulary tier.

Importing this package is cheap: it names the shipped vocabularies and their versions only.
The counter is ``tg_git.estimate.vocab.table``; the data files ``<profile>.bin`` are written by
``bench/vocab.py`` from the real tokenizers (see NOTICE for their licences).
"""

from __future__ import annotations

from tg_git.estimate.vocab._versions import VERSIONS

__all__ = ["VERSIONS"]
