"""The offline token estimator. Its Python API is ``tg_git.estimate.estimate_tokens(text,
path=None, profile="o200k")``, loaded the first time it is asked for: the hooks import
``tg_git.estimate.estimator`` itself, and importing this package costs them nothing."""

TYPE_CHECKING = False  # no `import typing` here: the commit hook imports this package
if TYPE_CHECKING:
    from tg_git.estimate.estimator import estimate_tokens as estimate_tokens
else:

    def __getattr__(name):
        if name == "estimate_tokens":
            from tg_git.estimate.estimator import estimate_tokens  # lazy: 1.1 ms

            return estimate_tokens
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["estimate_tokens"]
