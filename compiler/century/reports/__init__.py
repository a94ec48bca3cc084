"""A simulation's report: its JSON (`report`), its HTML page and its charts (`charts`)."""
