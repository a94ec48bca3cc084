"""`century serve`: a game's table in the browser.

- `tables`: the tables in play (the engine's state, the seats and their secret tokens, the
  bots, undo, records), what each seat may see of one (`snapshot`), and the move log in words;
  no web framework here, so it is tested and measured on its own.
- `cards`: the card images of a game, drawn as `century images` draws them, cached per game.
- `app`: the Starlette application (pages, the JSON API, the live channel as server-sent
  events, the checks every request goes through) and `run`, which serves it with uvicorn.
- `static/`: the page (HTML, CSS and plain JavaScript, no build step), shipped in the package.
- `words`: the page's own words, one file per language in `words/`, shipped in the package.
"""
