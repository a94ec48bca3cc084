"""Targets' files written into a folder, as a build writes them."""

from __future__ import annotations

from pathlib import Path

from century.model.ruleset import Ruleset
from century.targets import BuildOptions, targets


def written(target: str, ruleset: Ruleset, folder: Path, **request: object) -> list[Path]:
    """Write what the target `target` renders for `ruleset` (a build asking `request`:
    `BuildOptions` fields) into `folder`; the paths, in the order rendered."""
    files = targets()[target].build(ruleset, BuildOptions(**request))  # type: ignore[arg-type]
    paths = []
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        paths.append(path)
    return paths
