"""Libraries the targets share: Python source beside the engine (`rl`, the learning
adapters' action codec), Typst rendering (`typst`) and what printed cards and kit pieces
show (`cards`). Nothing here is a target; targets import these, never each other."""
