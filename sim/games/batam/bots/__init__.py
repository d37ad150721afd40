"""Batam's bots, one module per family: ``random`` (uniform over the legal options) and
``heuristic`` (every style: its parameters are the ``B_*`` slots of ``bp``).  The phases
(``phases.py``) ask the seat's bot for each decision; a bot only chooses, the rules apply."""
