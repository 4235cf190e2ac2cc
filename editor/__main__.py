"""``python -m avecaesar.editor`` runs the CLI."""

from avecaesar.editor.cli import main

main()
