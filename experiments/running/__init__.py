"""Playing games and keeping what they give: one configuration (``runner``), strategies on
the same seeds (``comparison``), a sweep's spec and its cells (``spec``, ``sweep``), chunks
played on a Dask cluster (``distributed``), the resumable playouts of many settings the balance
tools play (``plays``), a run kept in a folder and pools of runs (``runfolder``), and the
ceilings on what a command may ask for (``limits``).  Everything that calls a game's
``run_batch`` lives here; what the playouts mean is ``experiments.analysis``'s."""
