"""The renderers: Graphviz boards, charts, event texts, the self-contained replay page and the
ruleset docs. They use the engine only; the CLI and the web app both use them."""
