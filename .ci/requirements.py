"""Prints the requirements of the named extras of pyproject.toml, one a line, for `pip install -r`:
CI installs what the extras declare, so that an extra that misses a package fails CI."""

import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
extras = project["optional-dependencies"]
unknown = [name for name in sys.argv[1:] if name not in extras]
if unknown:
    sys.exit(f"no extra {', '.join(unknown)} in pyproject.toml (extras: {', '.join(extras)})")
print("\n".join(dict.fromkeys([*project["dependencies"], *(r for name in sys.argv[1:] for r in extras[name])])))
