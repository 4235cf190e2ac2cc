"""``python -m avecaesar.editor`` runs the CLI."""

from avecaesar.editor.main import main

main()
