"""How to install an optional extra, said so that it works however `century` was installed:
with pip into an environment, with pipx (which needs `pipx inject`), or from a checkout."""

from __future__ import annotations

DISTRIBUTION = "century-compiler"
"""The distribution `century` is installed as (what `pipx inject` names)."""


def install_hint(extra: str, packages: str) -> str:
    """The install commands for an extra whose requirements are `packages` (as pip spells
    them); the packages, not the extra, since the distribution need not be on an index."""
    quoted = f"'{packages}'" if "[" in packages else packages
    return (
        f"pip install {quoted} (installed with pipx: pipx inject {DISTRIBUTION} {quoted}; "
        f"in a checkout: pip install -e '.[{extra}]')"
    )
