"""Slovenian Tarok (3 and 4 players): the contract table (``contracts``), the phases it plays its own way (``replay``) and its scoring (``scoring``)."""
