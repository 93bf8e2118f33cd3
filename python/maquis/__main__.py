import sys

from maquis.cli import main

sys.exit(main())
