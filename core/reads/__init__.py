"""Read models over a game: the tally's formats, the views, the roster, the queries,
conformance, rulings, verify."""
