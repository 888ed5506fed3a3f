"""What the tests share besides fixtures: real repositories, restricted processes, the
agents' transcripts and hooks (fixtures stay in ``tests/conftest.py``)."""
