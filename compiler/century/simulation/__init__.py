"""Games played by bots and what they add up to: one game (`game`, `record`), many in parallel
(`simulate`), their tallies and statistics (`aggregate`, `stats`, `compare`), stopping when
sure (`sequential`), the bots' ladder (`ladder`) and the recheck of a stored record; one
`century simulate` run, planned and played (`run`)."""
