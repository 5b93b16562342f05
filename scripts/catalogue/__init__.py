"""The reference catalogue: plain Python, importable and testable without MkDocs.

Pages flow one way: load (model) -> enrich (back-links, in load) -> render / emit;
match.py is the Python twin of the browser's matcher and reads the emitted index.
"""
