"""The generic race engine: lane graphs, rules, state, turns, bots."""
