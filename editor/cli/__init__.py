"""The command line's commands: one module per command group (course, ruleset, race, …),
registered in editor/commands.py; the option parsing and the error boundary they share
(common.py). The CLI uses the renderers and the table, never the web app."""
