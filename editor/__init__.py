"""The command-line editor."""
