"""The domain as plain data: events, the game state, units, their names, refusals, bounds."""
