"""Reading and writing records, and batch labelling.

Records and format detection (asking the registry), JSON lines and JSON lists, plain-text layouts,
Parquet, writers; batch labelling covers streaming, worker processes and what happens on bad input.
Nothing here knows a corpus."""
