"""When a game is long enough to keep a snapshot of (``core.log.snapcache``), as plain
numbers: the fold and the store ask these of every game, and the snapshot cache itself
(its rows, its checks against the state's classes) loads only for a game that has one."""

MIN_EVENTS = 5_000  # smaller games fold in well under 0.1 s: no snapshot
TAIL = 256  # the snapshot keeps the state this many effective events back beside its own,
# so the undo journal of the events an undo usually reaches is made by folding these
# events, never the game, when the first undo or replay reaches them
REFRESH = 2_048  # rewrite when the game has grown this much past its snapshot
