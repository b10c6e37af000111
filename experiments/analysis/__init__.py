"""What the playouts say about the rules and the strategies: the numbers of the rules a
designer can turn (``knobs``) and the headline number measured on playouts (``metrics``);
which number moves the balance most (``sensitivity``) and what value hits a target (``tune``);
claims of order checked on a sweep (``order``); strength ladders and tournaments (``ladder``,
``tournament``); saved results found and two sweeps compared cell by cell (``catalog``: list
and diff).  It asks ``experiments.running`` for playouts and ``experiments.reporting`` for
words and charts; nothing below it imports it."""
