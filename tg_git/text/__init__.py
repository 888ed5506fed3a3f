"""Layer 1: the user-facing text (messages, en + ko) and the terminal; imports nothing of tg_git."""
