"""Build-only: what the MkDocs build needs from the catalogue (pages, API, match index, redirects) and a local preview."""
