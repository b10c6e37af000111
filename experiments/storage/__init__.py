"""What is written to disk and read back: output folders and their manifests (``outdir``:
which folders this tool wrote, what in them it may replace), a sweep's folder with atomic
writes of JSON, CSV, text and Parquet and the loading of its results (``store``), strict JSON
(``jsonout``) and a rules data file written with some values changed (``rulesfile``).  It
plays nothing and draws nothing: the floor the other rooms stand on (with
``experiments.stats``)."""
