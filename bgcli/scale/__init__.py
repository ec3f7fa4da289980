"""Work over many files: the audit of an archive on worker processes or a Dask cluster, and its results database."""
