"""The bots that play a generated engine: the registry (`registry`: random, greedy and the
strong ones by name), the planner's search (`planner`), the expert (`expert`) and what both
know of a game (`knowledge`)."""
