"""The durable file: the journal, its lock, the reading loop, the hash chain, upgrades,
the timeline of control records, the snapshot cache and the store (shared with the camp)."""
