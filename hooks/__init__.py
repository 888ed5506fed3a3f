"""The git hook shims `tg-git install` writes; shipped in the wheel as ``tg_git.hooks``.

This folder sits at the top of the source tree (the design's layout) and is mapped into the
package by ``[tool.setuptools.package-dir]`` in pyproject.toml; agent hook templates belong here too.
"""
