"""The Century rules compiler: YAML rules data -> engine, rule sheets, card sheets."""

__version__ = "0.1.0"
