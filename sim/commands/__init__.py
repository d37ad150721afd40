"""The commands of ``sim``, one module per command (``sim.cli`` loads each when it is looked up)."""
