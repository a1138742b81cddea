"""Reading and writing records, and batch labelling.

Reading and writing: records and format detection (asking the registry), JSON lines
and JSON lists, plain-text layouts, Parquet, writers, and batch labelling (streaming,
worker processes, what happens on bad input). Nothing here knows a corpus."""
