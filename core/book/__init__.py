"""The write protocol and the history: Game (the front door), Writer, the projection,
Change and what a write did to later entries, the tally, the history sentences."""
