"""The `avecaesar` command."""
import typer

app = typer.Typer(no_args_is_help=True)

@app.command()
def hello() -> None:
    print("hi")

def main() -> None:
    app()
