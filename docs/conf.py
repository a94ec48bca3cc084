"""Sphinx configuration of the docs site (built by tests/project/test_docs.py in strict mode).

Build it with ``python -m sphinx -b html -W --keep-going docs build/docs``. The pages are
Markdown (MyST); the reference pages that list the commands, the diagnostic codes, the
schemas and the caps are generated at build time by the extension in ``_ext/century_docs.py``
from the code itself, never copied by hand.

Why Sphinx with MyST: Sphinx is actively maintained and released; its autodoc reads the
engine's and environments' docstrings; its strict mode (``-W -n``) fails on a broken link or
reference; MyST keeps the pages in Markdown, as the README was; and the ``html`` builder
gives every page a file of its own (``.../codes/C302.html``, the address
`century.base.explanations.url` and the SARIF rules' ``helpUri`` name), so the site's links work
both served and opened from disk. The theme is Furo, with sphinx-copybutton's button on every
code block (both well kept, both installed by the ``docs`` extra).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

from century import __version__

project = "Century rules compiler"
author = "the Century rules compiler authors"
copyright = "the Century rules compiler authors"
version = release = __version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx_copybutton", "century_docs"]
source_suffix = {".md": "markdown"}
root_doc = "index"
# _generated/ holds the parts the extension writes for pages to include; README.md files of
# folders are for people browsing the repository, not pages.
exclude_patterns = ["_build", "**/_generated", "**/README.md"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# `--strict` stays two hyphens, quotes stay as typed (commands and options are quoted often)
smartquotes = False

# Strict: a reference to a page, label or object that does not exist fails the build.
nitpicky = True

autodoc_member_order = "bysource"
autodoc_typehints = "none"
# Only what the generated modules say themselves (not the docstrings of gymnasium's base classes)
autodoc_inherit_docstrings = False
autodoc_default_options = {"undoc-members": False}

html_theme = "furo"
html_title = "Century rules compiler"
html_static_path: list[str] = []
# The copy button copies the command, not the prompt or the output shown after it
copybutton_prompt_text = r"\$ |>>> |\.\.\. "
copybutton_prompt_is_regexp = True
