"""Release numbers in order: the model checks ranges with it, the matcher reads a revealed release against them."""


def version_key(version: str) -> list[int] | None:
    """Dotted numbers for ordering ("2.28.3" -> [2, 28, 3]); None for other forms."""
    parts = version.split(".")
    return [int(p) for p in parts] if all(p.isdigit() for p in parts) else None
