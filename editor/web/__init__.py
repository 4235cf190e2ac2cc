"""The table in the browser: ``avecaesar serve`` (Starlette app, static pages, board SVG)."""
