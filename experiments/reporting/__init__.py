"""What a person reads: a sweep's report (``report``: Markdown with PNG charts beside it and
one self-contained HTML file, and the ``Doc`` the other reports are written with), the sweep
charts (``charts``) and the balance tools' charts (``balance_charts``), words for outcomes,
settings and turns as the rulebooks write them (``labels``) and values and settings as a user
types them (``text``).  It turns results into words and pictures; it plays nothing."""
