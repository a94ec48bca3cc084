"""Where the bundled data lives in a checkout."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
SCHEMAS = ROOT / "schema"
BUILD = Path("build")
