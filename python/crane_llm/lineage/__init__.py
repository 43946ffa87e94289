"""Origin of the crash: the execution recorder and the lineage over its log (twin of libs/lineage)."""
