# The repository's shared test helpers (tests/prereq.py): a regular package, so
# that a stray "tests" package elsewhere on sys.path cannot shadow it.
