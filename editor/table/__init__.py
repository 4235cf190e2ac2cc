"""A race among people, shared by the terminal and the browser: the game with its hidden hands
and undo points (game.py) and the moves a person is offered (choices.py)."""
