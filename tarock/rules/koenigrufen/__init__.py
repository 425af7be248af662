"""Austrian Königrufen (4 players): the contract and value tables (``contracts``), its phases (``replay``) and its zero-sum scoring (``scoring``)."""
