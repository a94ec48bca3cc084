"""Libraries the targets share: Python source beside the engine (`rl`, the learning
adapters' action codec), Typst rendering (`typst`), what printed cards and the kit's pieces
show (`cards`) and safe file names from ids (`names`). Nothing here is a target; targets
import these, never each other."""
