"""The engine target: the game's standalone engine module (see `century.engine`)."""

from century.engine import TARGET

__all__ = ["TARGET"]
